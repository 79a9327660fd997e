import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { type Db, migrationsFolder, type Tx } from "../db/client";
import { BackupError, type MigrationLevel } from "./format";

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

/** The migrations this code knows, in order (drizzle's journal). */
export function knownMigrations(): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/**
 * How far a database is migrated: drizzle records each applied migration with its journal time;
 * the level is the journal's entries up to the newest of them. Null: nothing applied yet.
 */
export async function migrationLevel(db: Db | Tx): Promise<MigrationLevel | null> {
  const exists = await db.execute<{ found: boolean }>(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as found`,
  );
  if (!exists.rows[0]?.found) return null;
  const result = await db.execute<{ newest: string | null }>(
    sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`,
  );
  const newest = result.rows[0]?.newest;
  if (newest === null || newest === undefined) return null;
  const known = knownMigrations();
  const index = known.findIndex((m) => m.when === Number(newest));
  if (index < 0) {
    throw new BackupError(
      "The database has a migration this CareCampus does not know: it was written by a newer version.",
    );
  }
  const last = known[index] as JournalEntry;
  return { count: index + 1, tag: last.tag, when: last.when };
}

/**
 * Checks that this code can restore a backup of `level`: the same migration history up to it
 * (a backup of a newer version is refused; update CareCampus first).
 */
export function checkRestorable(level: MigrationLevel): void {
  const known = knownMigrations();
  const newest = known[known.length - 1];
  if (level.count > known.length) {
    throw new BackupError(
      `The backup was written at migration ${level.tag}, newer than this CareCampus knows (${newest?.tag}). ` +
        "Update CareCampus to the version that wrote it (or newer), then restore.",
    );
  }
  const same = known[level.count - 1];
  if (!same || same.tag !== level.tag || same.when !== level.when) {
    throw new BackupError(
      `The backup's migration ${level.tag} is not this CareCampus's migration ${level.count} (${same?.tag}): ` +
        "it was written by a different line of versions.",
    );
  }
}

/**
 * A migrations folder holding the first `count` migrations only: drizzle's migrator applies what
 * its journal lists, so an empty installation migrated with it stops at a backup's level (the
 * next server start applies the rest, on the restored data). The caller removes it.
 */
export function migrationsUpTo(count: number): { folder: string; remove(): void } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "cc-restore-migrations-"));
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  const entries = journal.entries.slice(0, count);
  fs.mkdirSync(path.join(folder, "meta"));
  fs.writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) {
    fs.copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  }
  return { folder, remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}
