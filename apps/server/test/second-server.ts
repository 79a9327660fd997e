import { sql } from "drizzle-orm";
import { type Database, openDatabase } from "../src/db/client";
import type { TestContext } from "./helpers";

/**
 * The database as a second server sees it: on PostgreSQL a pool of its own on the test's
 * database (its advisory locks and row locks are another session's), on PGlite the same
 * in-process database (one server by design). Close it before the test context.
 */
export async function secondServerDatabase(ctx: TestContext): Promise<{ database: Database; close(): Promise<void> }> {
  if (ctx.deps.database.kind === "pglite") return { database: ctx.deps.database, close: async () => {} };
  const [row] = (await ctx.deps.database.db.execute<{ name: string }>(sql`select current_database() as name`)).rows;
  const url = new URL(process.env.DATABASE_URL ?? "");
  url.pathname = `/${row?.name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return { database, close: () => database.close() };
}
