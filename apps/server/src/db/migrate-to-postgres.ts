/**
 * npm run db:migrate-to-postgres: copies every row of the PGlite database in DATA_DIR into the
 * (empty) PostgreSQL database named by DATABASE_URL, in one transaction, then moves the id
 * sequences past the copied ids. The PGlite data stays untouched.
 */
import path from "node:path";
import { getTableColumns, getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { openDatabase } from "./client";
import * as schema from "./schema";

// Parents before children, so foreign keys hold at every insert.
const TABLES: PgTable[] = [
  schema.facilities,
  schema.roles,
  schema.users,
  schema.userRoles,
  schema.preferences,
  schema.activities,
  schema.qualifications,
  schema.userActivities,
  schema.userQualifications,
  schema.notifications,
  schema.appMeta,
];

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("Set DATABASE_URL to the PostgreSQL database to copy into.");
  const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
  const source = await openDatabase({ pgliteDir: dataDir, fsync: true });
  const target = await openDatabase({ databaseUrl: url });
  try {
    const existing = await target.db.select({ n: sql<number>`count(*)::int` }).from(schema.users);
    if ((existing[0]?.n ?? 0) > 0)
      throw new Error("The PostgreSQL database already has users; copy only into an empty one.");
    await target.db.transaction(async (tx) => {
      for (const table of TABLES) {
        const rows = await source.db.select().from(table);
        for (let i = 0; i < rows.length; i += 500) {
          await tx
            .insert(table)
            .values(rows.slice(i, i + 500) as never)
            .onConflictDoNothing();
        }
        const name = getTableName(table);
        if ("id" in getTableColumns(table)) {
          await tx.execute(
            sql.raw(
              `select setval(pg_get_serial_sequence('"${name}"', 'id'), greatest(coalesce((select max(id) from "${name}"), 0), 1))`,
            ),
          );
        }
        console.log(`${name}: ${rows.length} rows`);
      }
    });
    console.log(`Copied ${dataDir} into PostgreSQL. Start with DATABASE_URL set to use it.`);
  } finally {
    await source.close();
    await target.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
