import { sql } from "drizzle-orm";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { type Database, type Db, openDatabase, type Tx } from "../db/client";
import { advisoryKey, lockForTransaction } from "../db/locks";
import { ident, tableColumns, tablesToCopy } from "./dump";
import { BackupError, type BackupEvent, type BackupHeader, type Manifest, readBackup } from "./format";
import { checkRestorable, migrationLevel, migrationsUpTo } from "./migrations";

/** Where a restore writes: PostgreSQL with a URL, else PGlite in the data directory. */
export interface RestoreTarget {
  databaseUrl?: string | undefined;
  dataDir: string;
}

/**
 * Rows the migrations themselves write (the role names, the content generation): a target that
 * holds only these is empty. backup.test.ts checks that a freshly migrated database counts as
 * empty, so a migration that seeds another table fails there until it is named here.
 */
const MIGRATION_ROWS: Readonly<Record<string, string>> = {
  roles: "true",
  app_meta: `"key" = 'content_generation'`,
};

/** The tables of `db` that hold rows of their own, with how many. */
export async function tablesWithData(db: Db | Tx): Promise<{ table: string; rows: number }[]> {
  const found: { table: string; rows: number }[] = [];
  for (const table of await tablesToCopy(db)) {
    const own = MIGRATION_ROWS[table] ? ` where not (${MIGRATION_ROWS[table]})` : "";
    const result = await db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${ident(table)}${own}`));
    const rows = result.rows[0]?.n ?? 0;
    if (rows > 0) found.push({ table, rows });
  }
  return found;
}

/** "facilities: 1 row, users: 15 rows and 20 more tables": enough to recognise an installation. */
function describeData(data: { table: string; rows: number }[]): string {
  const named = data.slice(0, 5).map((d) => `${d.table}: ${d.rows} ${d.rows === 1 ? "row" : "rows"}`);
  return data.length > 5 ? `${named.join(", ")} and ${data.length - 5} more tables` : named.join(", ");
}

/** Tables with a foreign key to themselves (a user archived by another user): loaded in one statement. */
async function selfReferencing(tx: Tx): Promise<Set<string>> {
  const result = await tx.execute<{ name: string }>(
    sql`select distinct c.relname as name from pg_constraint k join pg_class c on c.oid = k.conrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and k.conrelid = k.confrelid and n.nspname = 'public'`,
  );
  return new Set(result.rows.map((r) => r.name));
}

export interface RestoreResult {
  header: BackupHeader;
  manifest: Manifest;
}

async function openTarget(target: RestoreTarget): Promise<Database> {
  return target.databaseUrl
    ? openDatabase({ databaseUrl: target.databaseUrl, migrations: false, poolSize: 2 })
    : openDatabase({ pgliteDir: target.dataDir, fsync: true, migrations: false });
}

/**
 * Restores the backup `file` into an empty installation: migrates it to the backup's level (the
 * next server start applies newer migrations to the restored data), then loads every table in
 * foreign-key order, sets the sequences and checks every count, all in ONE transaction: a damaged
 * file, a refused target or any error leaves the target as it was. Refuses a target with data
 * (BackupError naming its tables) and a backup of a newer version.
 */
export async function restoreBackup(file: string, target: RestoreTarget, log = console.log): Promise<RestoreResult> {
  const events = readBackup(file);
  try {
    const first = await events.next();
    if (first.done || first.value.kind !== "header") throw new BackupError(`${file} is not a CareCampus backup.`);
    const header = first.value.header;
    checkRestorable(header.migration);
    const database = await openTarget(target);
    // PostgreSQL: a server starting on the target meanwhile waits (it migrates under this lock).
    const release = await database.tryAdvisoryLock(advisoryKey("migrations"));
    try {
      if (!release)
        throw new BackupError("Another process is migrating the target database; try again when it is done.");
      const level = await migrationLevel(database.db);
      if (!level && (await tablesToCopy(database.db)).length > 0) {
        throw new BackupError(
          "The target database has tables but no CareCampus migrations: it is not an empty CareCampus installation. " +
            "Restore into a new DATA_DIR or a new PostgreSQL database (createdb).",
        );
      }
      if (level) {
        const data = await tablesWithData(database.db);
        if (data.length > 0) {
          throw new BackupError(
            `The target installation is not empty (${describeData(data)}). ` +
              "Restore only into an empty installation: a new DATA_DIR, or a new PostgreSQL database (createdb).",
          );
        }
        if (level.count > header.migration.count) {
          throw new BackupError(
            `The target database is already migrated to ${level.tag}, past the backup's ${header.migration.tag}. ` +
              "Restore into a new DATA_DIR or a new PostgreSQL database.",
          );
        }
      }
      const migrations = migrationsUpTo(header.migration.count);
      try {
        if (database.kind === "postgres") await migratePg(database.db, { migrationsFolder: migrations.folder });
        else await migratePglite(database.db as never, { migrationsFolder: migrations.folder });
      } finally {
        migrations.remove();
      }
      const manifest = await database.db.transaction((tx) => load(tx, events));
      log(
        `Restored ${file} (CareCampus ${header.app.version}, ${header.createdAt}, migration ${header.migration.tag}): ` +
          `${manifest.tables.length} tables, ${manifest.tables.reduce((n, t) => n + t.rows, 0)} rows.`,
      );
      return { header, manifest };
    } finally {
      await release?.();
      await database.close();
    }
  } finally {
    await events.return(undefined);
  }
}

/** Loads the events after the header into the empty, migrated target; returns the checked manifest. */
async function load(tx: Tx, events: AsyncGenerator<BackupEvent>): Promise<Manifest> {
  await lockForTransaction(tx, "seed");
  const tables = await tablesToCopy(tx);
  const staged = await selfReferencing(tx);
  // The triggers of the tables are the server's (change notices, the audit log's append-only
  // rule): loading rows as they were needs none of them. Foreign keys stay checked.
  for (const table of tables) await tx.execute(sql.raw(`alter table ${ident(table)} disable trigger user`));
  // Out go the migrations' own rows (tablesWithData allowed only those); the backup has them.
  for (const table of [...tables].reverse()) await tx.execute(sql.raw(`delete from ${ident(table)}`));
  let current: { name: string; into: string } | null = null;
  let manifest: Manifest | null = null;
  for await (const event of events) {
    if (event.kind === "table") {
      const name = event.table.name;
      if (!tables.includes(name))
        throw new BackupError(`The backup holds a table ${name} this installation does not have.`);
      const { columns } = await tableColumns(tx, name);
      if (columns.join() !== event.table.columns.join()) {
        throw new BackupError(`The columns of table ${name} in the backup differ from this installation's.`);
      }
      // A table referring to itself is staged and inserted in one statement, whose foreign keys
      // are checked at its end: rows may then come in any order.
      if (staged.has(name)) {
        await tx.execute(sql.raw(`create temp table cc_restore_stage (like ${ident(name)}) on commit drop`));
        current = { name, into: "cc_restore_stage" };
      } else current = { name, into: ident(name) };
    } else if (event.kind === "rows") {
      if (!current || current.name !== event.table)
        throw new BackupError("The backup is damaged: rows outside a table.");
      const json = `[${event.rows.join(",")}]`;
      await tx.execute(
        sql`insert into ${sql.raw(current.into)} select * from jsonb_populate_recordset(null::${sql.raw(ident(current.name))}, ${json}::jsonb)`,
      );
    } else if (event.kind === "end") {
      if (current && current.into !== ident(current.name)) {
        await tx.execute(sql.raw(`insert into ${ident(current.name)} select * from ${current.into}`));
        await tx.execute(sql.raw(`drop table ${current.into}`));
      }
      current = null;
    } else if (event.kind === "sequences") {
      for (const s of event.sequences.values) {
        if (s.value === null) continue;
        await tx.execute(sql`select setval(${`public.${ident(s.name)}`}::regclass, ${s.value}::bigint)`);
      }
    } else if (event.kind === "manifest") {
      manifest = event.manifest;
    }
  }
  if (!manifest) throw new BackupError("The backup is incomplete: it ends before its manifest.");
  const listed = new Map(manifest.tables.map((t) => [t.name, t.rows]));
  for (const table of tables) {
    const expected = listed.get(table);
    if (expected === undefined)
      throw new BackupError(`The backup has no table ${table}: it cannot restore this installation.`);
    const result = await tx.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${ident(table)}`));
    if (result.rows[0]?.n !== expected) {
      throw new BackupError(
        `Table ${table} holds ${result.rows[0]?.n} rows after loading, not the ${expected} of the backup.`,
      );
    }
  }
  for (const table of tables) await tx.execute(sql.raw(`alter table ${ident(table)} enable trigger user`));
  return manifest;
}
