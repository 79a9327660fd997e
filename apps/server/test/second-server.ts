import { sql } from "drizzle-orm";
import pg from "pg";
import { type Database, openDatabase } from "../src/db/client";
import type { TestContext } from "./helpers";

/** PostgreSQL: the address of the test's own database (each test file has one). */
async function testDatabaseUrl(ctx: TestContext): Promise<string> {
  const [row] = (await ctx.deps.database.db.execute<{ name: string }>(sql`select current_database() as name`)).rows;
  const url = new URL(process.env.DATABASE_URL ?? "");
  url.pathname = `/${row?.name}`;
  return url.toString();
}

/**
 * The database as a second server sees it: on PostgreSQL a pool of its own on the test's
 * database (its advisory locks and row locks are another session's), on PGlite the same
 * in-process database (one server by design). Close it before the test context.
 */
export async function secondServerDatabase(ctx: TestContext): Promise<{ database: Database; close(): Promise<void> }> {
  if (ctx.deps.database.kind === "pglite") return { database: ctx.deps.database, close: async () => {} };
  const database = await openDatabase({ databaseUrl: await testDatabaseUrl(ctx) });
  return { database, close: () => database.close() };
}

/**
 * PostgreSQL only: one plain session on the test's database, as a tool or another server's
 * transaction would be: it holds locks and commits between the server's statements. End it
 * (`end()`) before the test context closes.
 */
export async function otherSession(ctx: TestContext): Promise<pg.Client> {
  if (ctx.deps.database.kind !== "postgres") throw new Error("otherSession needs PostgreSQL");
  const client = new pg.Client({ connectionString: await testDatabaseUrl(ctx) });
  await client.connect();
  return client;
}
