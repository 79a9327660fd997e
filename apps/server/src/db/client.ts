import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { serverPath } from "../paths";
import * as schema from "./schema";

export type Db = ReturnType<typeof drizzlePg<typeof schema>>;
/** A transaction handle; services accept `Db | Tx` where they can run inside one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Takes the PostgreSQL session-level advisory lock `key` if no other process (or, on PGlite,
   * no other holder in this process) has it: the release function, or null when it is taken.
   * Held on a connection of its own, so the holder's work may use the pool meanwhile.
   */
  tryAdvisoryLock(key: number): Promise<(() => Promise<void>) | null>;
}

const migrationsFolder = serverPath("src/db/migrations");

export class DataDirInUseError extends Error {}

/**
 * PGlite has no lock of its own: two processes on one directory corrupt it. A lock file
 * holding the owner's pid refuses a second process; a stale lock (owner gone) is taken over.
 */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, "carecampus.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      return () => {
        try {
          if (fs.readFileSync(lockFile, "utf8") === String(process.pid)) fs.unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(fs.readFileSync(lockFile, "utf8"));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new DataDirInUseError(
          `The data directory ${dir} is in use by another CareCampus process (pid ${owner}). ` +
            "Stop that process, use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server.",
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock the data directory ${dir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** PGlite directory; `undefined` keeps the database in memory (tests). */
  pgliteDir?: string | undefined;
  /** PGlite starts PostgreSQL with fsync off (-F) by default; true drops that flag. */
  fsync?: boolean;
  /** PGlite starts from this `dumpDataDir()` tarball (tests: an already migrated template). */
  pgliteLoadDataDir?: Blob | undefined;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client's error (server restart) must not crash the process.
    pool.on("error", () => {});
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return {
      db,
      kind: "postgres",
      ping: async () => {
        await pool.query("select 1");
      },
      close: () => pool.end(),
      tryAdvisoryLock: async (key) => {
        const client = await pool.connect();
        try {
          const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [key]);
          if (!rows[0]?.locked) {
            client.release();
            return null;
          }
        } catch (err) {
          client.release(err as Error);
          throw err;
        }
        return async () => {
          try {
            await client.query("select pg_advisory_unlock($1)", [key]);
            client.release();
          } catch (err) {
            // A broken connection is dropped; the server frees its locks with it.
            client.release(err as Error);
          }
        };
      },
    };
  }
  const unlock = options.pgliteDir ? lockDataDir(options.pgliteDir) : () => {};
  try {
    const startParams = options.fsync
      ? PGlite.defaultStartParams.filter((p: string) => p !== "-F")
      : PGlite.defaultStartParams;
    const client = await PGlite.create({
      ...(options.pgliteDir ? { dataDir: path.join(options.pgliteDir, "pglite") } : {}),
      ...(options.pgliteLoadDataDir ? { loadDataDir: options.pgliteLoadDataDir } : {}),
      startParams,
    });
    // drizzle's pglite and node-postgres drivers share the query builder; one type serves both.
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    // On a loaded template this only confirms that every migration is applied.
    await migratePglite(db as never, { migrationsFolder });
    // PGlite has one session, in which advisory locks are re-entrant: the holders in this
    // process are told apart here (no other process can open the same directory).
    const held = new Set<number>();
    return {
      db,
      kind: "pglite",
      ping: async () => {
        await client.query("select 1");
      },
      close: async () => {
        await client.close();
        unlock();
      },
      tryAdvisoryLock: async (key) => {
        if (held.has(key)) return null;
        held.add(key);
        try {
          await client.query("select pg_advisory_lock($1)", [key]);
        } catch (err) {
          held.delete(key);
          throw err;
        }
        return async () => {
          held.delete(key);
          await client.query("select pg_advisory_unlock($1)", [key]);
        };
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/**
 * Runs independent queries: in parallel on the pool, one after another inside a transaction,
 * whose single connection must not get a second query while one is running.
 */
export async function runAll<T extends readonly unknown[]>(
  db: Db | Tx,
  queries: { [K in keyof T]: () => PromiseLike<T[K]> },
): Promise<T> {
  if (typeof (db as { rollback?: unknown }).rollback === "function") {
    const results: unknown[] = [];
    for (const q of queries) results.push(await q());
    return results as unknown as T;
  }
  return (await Promise.all(queries.map((q) => q()))) as unknown as T;
}
