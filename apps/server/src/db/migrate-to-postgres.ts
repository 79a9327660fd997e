/**
 * npm run db:migrate-to-postgres: copies every row of the PGlite database in DATA_DIR into the
 * (empty) PostgreSQL database named by DATABASE_URL, in one transaction, then moves the id
 * sequences past the copied ids. The PGlite data stays untouched.
 */
import path from "node:path";
import { getTableColumns, getTableName, is, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { openDatabase } from "./client";
import * as schema from "./schema";

/**
 * Every table of the schema, parents before children so foreign keys hold at every insert.
 * Derived from the schema itself: a table added later is copied without anyone remembering to.
 */
export function tablesInCopyOrder(): PgTable[] {
  const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
  const ordered: PgTable[] = [];
  const visiting = new Set<PgTable>();
  const visit = (table: PgTable) => {
    if (ordered.includes(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const fk of getTableConfig(table).foreignKeys) {
      const parent = fk.reference().foreignTable;
      if (parent !== table) visit(parent);
    }
    visiting.delete(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/** Copies the PGlite database in `dataDir` into the empty PostgreSQL database at `url`. */
export async function copyToPostgres(dataDir: string, url: string, log = console.log): Promise<void> {
  const source = await openDatabase({ pgliteDir: dataDir, fsync: true });
  const target = await openDatabase({ databaseUrl: url });
  try {
    const existing = await target.db.select({ n: sql<number>`count(*)::int` }).from(schema.users);
    if ((existing[0]?.n ?? 0) > 0)
      throw new Error("The PostgreSQL database already has users; copy only into an empty one.");
    await target.db.transaction(async (tx) => {
      for (const table of tablesInCopyOrder()) {
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
        log(`${name}: ${rows.length} rows`);
      }
    });
    log(`Copied ${dataDir} into PostgreSQL. Start with DATABASE_URL set to use it.`);
  } finally {
    await source.close();
    await target.close();
  }
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("Set DATABASE_URL to the PostgreSQL database to copy into.");
  await copyToPostgres(path.resolve(process.env.DATA_DIR ?? "./data"), url);
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
