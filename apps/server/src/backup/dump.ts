import { once } from "node:events";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { getTableName, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { tablesInCopyOrder } from "../db/table-order";
import { readVersion } from "../system/version";
import { BackupError, BackupWriter, type Manifest } from "./format";
import { migrationLevel } from "./migrations";

/**
 * Rows a backup leaves out, per table: the token secret (PostgreSQL keeps it in app_meta). A
 * restored installation makes a new one at its first start; the only cost is that everybody
 * signs in again, and a backup file that leaks hands out no way to sign tokens.
 */
export const EXCLUDED_ROWS: Readonly<Record<string, string>> = { app_meta: `"key" <> 'jwt_secret'` };

/** Rows fetched at a time: few where a row may hold a 256 KiB media chunk, more elsewhere. */
const FETCH_WITH_BYTES = 8;
const FETCH = 500;

/** The tables of the database, parents before children (db/table-order.ts), then any the schema does not name. */
export async function tablesToCopy(db: Db | Tx): Promise<string[]> {
  const result = await db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const present = new Set(result.rows.map((r) => r.name));
  const ordered = tablesInCopyOrder()
    .map((t) => getTableName(t))
    .filter((name) => present.has(name));
  return [...ordered, ...[...present].filter((name) => !ordered.includes(name))];
}

/** A table's columns in their order, and whether any holds bytes. */
export async function tableColumns(db: Db | Tx, table: string): Promise<{ columns: string[]; bytes: boolean }> {
  const result = await db.execute<{ name: string; type: string }>(
    sql`select column_name as name, data_type as type from information_schema.columns
        where table_schema = 'public' and table_name = ${table} order by ordinal_position`,
  );
  return { columns: result.rows.map((r) => r.name), bytes: result.rows.some((r) => r.type === "bytea") };
}

/** A double-quoted SQL identifier. */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Writes a backup of `db` to `out` (gzip'd, backup/format.ts) and returns its manifest. Everything
 * is read in ONE repeatable-read, read-only transaction: the file holds the database as it was at
 * one moment, whatever the server writes meanwhile (PostgreSQL: the writers go on; PGlite, one
 * session: they wait until the backup is read). Rows stream through a cursor a few at a time and
 * wait for `out` to take them, so memory stays bounded however large the media are.
 */
export async function writeBackup(db: Db, database: "pglite" | "postgres", out: Writable): Promise<Manifest> {
  const gzip = zlib.createGzip();
  const piped = pipeline(gzip, out);
  // A failed write (the reader went away) fails the pipeline, which destroys gzip with the error:
  // a write waiting for room sees it, and the backup stops at its next line.
  let failed: unknown = null;
  piped.catch((err: unknown) => {
    failed = err ?? new Error("the backup's destination closed");
  });
  const write = async (line: string) => {
    if (failed) throw failed;
    if (!gzip.write(line)) await once(gzip, "drain");
  };
  const writer = new BackupWriter(write);
  try {
    const manifest = await db.transaction(
      async (tx) => {
        await tx.execute(sql`set local time zone 'UTC'`);
        await tx.execute(sql`set local bytea_output = 'hex'`);
        await tx.execute(sql`set local extra_float_digits = 1`);
        const level = await migrationLevel(tx);
        if (!level) throw new BackupError("The database has no migrations applied: there is nothing to back up.");
        const version = readVersion();
        await writer.header({
          app: { version: version.version, commit: version.short_hash },
          migration: level,
          createdAt: new Date().toISOString(),
          database,
        });
        for (const table of await tablesToCopy(tx)) {
          const { columns, bytes } = await tableColumns(tx, table);
          await writer.startTable(table, columns);
          const where = EXCLUDED_ROWS[table] ? ` where ${EXCLUDED_ROWS[table]}` : "";
          await tx.execute(
            sql.raw(
              `declare cc_backup no scroll cursor for select to_jsonb(t)::text as r from ${ident(table)} t${where}`,
            ),
          );
          const fetch = sql.raw(`fetch ${bytes ? FETCH_WITH_BYTES : FETCH} from cc_backup`);
          for (;;) {
            const { rows } = await tx.execute<{ r: string }>(fetch);
            for (const row of rows) await writer.row(row.r);
            if (rows.length === 0) break;
          }
          await tx.execute(sql`close cc_backup`);
          await writer.endTable();
        }
        const sequences = await tx.execute<{ name: string; value: string | null }>(
          sql`select sequencename as name, last_value::text as value from pg_sequences
              where schemaname = 'public' order by sequencename`,
        );
        await writer.sequences(sequences.rows.map((s) => ({ name: s.name, value: s.value })));
        return writer.finish();
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    gzip.end();
    await piped;
    return manifest;
  } catch (err) {
    gzip.destroy();
    await piped.catch(() => {});
    throw err;
  }
}
