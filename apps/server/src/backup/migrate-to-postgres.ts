/**
 * npm run db:migrate-to-postgres: copies every row of the PGlite database in DATA_DIR into the
 * (empty) PostgreSQL database named by DATABASE_URL, in one transaction, with the id sequences'
 * values. The PGlite data stays untouched.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { restoreBackup } from "./restore";
import { backupInstallation } from "./service";

/**
 * Copies the PGlite database in `dataDir` into the empty PostgreSQL database at `url`: a backup of
 * it (backup/: one consistent snapshot, through the server's channel while a server runs) restored
 * into PostgreSQL, so every value arrives exactly and the sequences where they were. The backup is
 * a temporary file beside nothing else, deleted afterwards.
 */
export async function copyToPostgres(dataDir: string, url: string, log = console.log): Promise<void> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "cc-move-"));
  try {
    const file = path.join(temp, "move.ccb");
    await backupInstallation({ dataDir }, file);
    const { manifest } = await restoreBackup(file, { databaseUrl: url, dataDir }, () => {});
    for (const table of manifest.tables) log(`${table.name}: ${table.rows} rows`);
    log(`Copied ${dataDir} into PostgreSQL. Start with DATABASE_URL set to use it.`);
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
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
