import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Db } from "../../apps/server/src/db/client";
import { openDatabase } from "../../apps/server/src/db/client";
import { seedReferenceLists } from "../../apps/server/src/demo/seed";

/**
 * The name of a bench database on PostgreSQL: BENCH_DB_PREFIX (default carecampus_bench) and the
 * measurement's part, so benches of several checkouts on one server never drop each other's.
 */
export function benchDatabaseName(part?: string): string {
  const prefix = process.env.BENCH_DB_PREFIX ?? "carecampus_bench";
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error("BENCH_DB_PREFIX: lower-case letters, digits and _ only");
  return part ? `${prefix}_${part}` : prefix;
}

/**
 * A database made for one measurement (PGlite in a temporary directory, or a PostgreSQL
 * database): `prepare` fills it in process, then `measure` runs against a server on it.
 */
export async function withFreshDatabase(
  url: string | undefined,
  part: string,
  prepare: (db: Db) => Promise<void>,
  measure: (env: Record<string, string>) => Promise<void>,
): Promise<void> {
  const name = benchDatabaseName(part);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cc-${name}-`));
  const admin = async (query: string) => {
    if (!url) return;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(query);
    await c.end();
  };
  try {
    let dbUrl: string | undefined;
    if (url) {
      await admin(`drop database if exists ${name} with (force)`);
      await admin(`create database ${name}`);
      const u = new URL(url);
      u.pathname = `/${name}`;
      dbUrl = u.toString();
    }
    const database = await openDatabase(dbUrl ? { databaseUrl: dbUrl } : { pgliteDir: dataDir, fsync: true });
    await seedReferenceLists(database.db);
    await prepare(database.db);
    // PGlite's directory is locked while open: the server gets it only now.
    await database.close();
    await measure({ DATA_DIR: dataDir, DATABASE_URL: dbUrl ?? "" });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin(`drop database if exists ${name} with (force)`);
  }
}
