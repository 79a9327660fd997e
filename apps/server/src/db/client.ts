import fs from "node:fs";
import path from "node:path";
import { loginKey } from "@carecampus/contract";
import { PGlite } from "@electric-sql/pglite";
import { eq, type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { Config } from "../config";
import { serverPath } from "../paths";
import { type ChangeFeed, pgliteChangeFeed, postgresChangeFeed } from "./changes";
import { type AdvisoryKey, advisoryKey } from "./locks";
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
   * Takes the PostgreSQL session-level advisory lock `key` (db/locks.ts) if no other process
   * (or, on PGlite, no other holder in this process) has it: the release function, or null when
   * it is taken. Held on a connection of its own, so the holder's work may use the pool meanwhile.
   */
  tryAdvisoryLock(key: AdvisoryKey): Promise<(() => Promise<void>) | null>;
  /** What any process committed, for the caches kept in memory (db/changes.ts). */
  changes: ChangeFeed;
}

/** The change feed of an open database, by its query handle (transactions have none of their own). */
const feeds = new WeakMap<object, ChangeFeed>();

/** Is `db` a transaction's handle (whose one connection runs one query at a time)? */
export function isTransaction(db: Db | Tx): db is Tx {
  return typeof (db as { rollback?: unknown }).rollback === "function";
}

/** The change feed behind `db`, when it is the database's own handle (not a transaction's). */
export function changeFeedOf(db: Db | Tx): ChangeFeed | undefined {
  return feeds.get(db);
}

export const migrationsFolder = serverPath("src/db/migrations");

export class DataDirInUseError extends Error {}

/**
 * When a process started, as the kernel counts it (Linux: field 22 of /proc/PID/stat, clock
 * ticks since boot): with the pid it names one process, since a pid is reused after its owner
 * ends. Null where there is no /proc (then a lock falls back to the pid alone).
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * When a process started, in milliseconds since the epoch: the boot time of /proc/stat plus the
 * start in clock ticks (USER_HZ, 100 a second on Linux). Null where there is no /proc.
 */
function processStartedAt(pid: number): number | null {
  const ticks = processStartTime(pid);
  if (ticks === null) return null;
  try {
    const boot = /^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"))?.[1];
    return boot ? (Number(boot) + Number(ticks) / 100) * 1000 : null;
  } catch {
    return null;
  }
}

interface LockOwner {
  pid: number;
  /** processStartTime of the owner when it took the lock; null in a lock file of an older version. */
  start: string | null;
  /** When the lock file was written. */
  writtenAt: number;
}

function readLockOwner(lockFile: string): LockOwner | null {
  let text: string;
  let writtenAt: number;
  try {
    text = fs.readFileSync(lockFile, "utf8").trim();
    writtenAt = fs.statSync(lockFile).mtimeMs;
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; start?: unknown };
    if (typeof parsed.pid === "number") {
      return { pid: parsed.pid, start: typeof parsed.start === "string" ? parsed.start : null, writtenAt };
    }
  } catch {
    // A lock file of an older version holds the bare pid.
  }
  const pid = Number(text);
  return Number.isInteger(pid) && pid > 0 ? { pid, start: null, writtenAt } : null;
}

/**
 * Is the lock's owner still running? Its pid must be alive and be the same process: the start
 * time the lock names, or (a bare pid of an older lock file) a process started before the lock
 * was written. A pid reused by an unrelated process since is no owner.
 */
function ownerRuns(owner: LockOwner): boolean {
  if (!isAlive(owner.pid)) return false;
  if (owner.start !== null) {
    const start = processStartTime(owner.pid);
    return start === null || start === owner.start;
  }
  const startedAt = processStartedAt(owner.pid);
  // Two seconds of slack: the boot time has whole seconds only.
  return startedAt === null || startedAt <= owner.writtenAt + 2_000;
}

/**
 * PGlite has no lock of its own: two processes on one directory corrupt it. A lock file
 * naming its owner by pid and start time refuses a second process; a stale lock (owner gone,
 * or its pid now another process's) is taken over.
 */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, "carecampus.lock");
  const me = JSON.stringify({ pid: process.pid, start: processStartTime(process.pid) });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, me, { flag: "wx" });
      return () => {
        try {
          if (fs.readFileSync(lockFile, "utf8") === me) fs.unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = readLockOwner(lockFile);
      if (owner && owner.pid !== process.pid && ownerRuns(owner)) {
        throw new DataDirInUseError(
          `The data directory ${dir} is in use by another CareCampus process (pid ${owner.pid}). ` +
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

/**
 * Gives every user whose login has characters beyond ASCII the key JavaScript's `loginKey`
 * writes (migration 0009 could only fold ASCII in SQL without depending on the database's
 * locale). Touches nothing once every key is right.
 */
async function syncLoginKeys(db: Db): Promise<void> {
  const rows = await db
    .select({ id: schema.users.id, login: schema.users.login, key: schema.users.loginKey })
    .from(schema.users)
    .where(sql`${schema.users.login} !~ '^[ -~]*$'`);
  for (const row of rows) {
    const key = loginKey(row.login);
    if (key !== row.key) await db.update(schema.users).set({ loginKey: key }).where(eq(schema.users.id, row.id));
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
  /** Count every query in `queryStats` (QUERY_STATS=true, for `npm run bench`). */
  countQueries?: boolean;
  /** PostgreSQL: the pool's connections (DATABASE_POOL_SIZE); 10 unless given. */
  poolSize?: number;
  /**
   * The migrations to apply on opening: the server's own folder unless given; another folder
   * (a restore migrates to a backup's level, backup/migrations.ts), or false to change nothing
   * (a backup reads an installation as it is).
   */
  migrations?: string | false;
}

/** Queries sent through this process's database since it started (only counted with `countQueries`). */
export const queryStats = { queries: 0 };
/** PostgreSQL's type id of bytea. */
const BYTEA_OID = 17;

/**
 * bytea parameters for PGlite as the bytes themselves, which PGlite binds in PostgreSQL's binary
 * format. Any text costs more: PGlite's own serializer maps every byte through a string in
 * JavaScript (seconds for an image, minutes for a video), and even Buffer's hex has PGlite measure
 * the string's UTF-8 length a character at a time and PostgreSQL decode it again. Storing a
 * 50 MiB video's chunks takes under half the processor time it took as hex.
 */
export function byteaBinary(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new Error("Invalid input for bytea type");
  // PGlite types a serializer's result as a string, but binds any ArrayBuffer view as binary.
  return value as unknown as string;
}

/** bytea results from PGlite, through Buffer's native hex decoder (PGlite's own parses each byte in JavaScript). */
export function byteaFromHex(text: string): Buffer {
  return Buffer.from(text.slice(2), "hex");
}

const queryListeners = new Set<(query: string) => void>();

/**
 * Sees the text of every query counted (`countQueries`), e.g. a test comparing the statements
 * two requests run; the return value stops listening.
 */
export function onQuery(listener: (query: string) => void): () => void {
  queryListeners.add(listener);
  return () => queryListeners.delete(listener);
}

const countingLogger = {
  logQuery: (query: string) => {
    queryStats.queries++;
    for (const listener of queryListeners) listener(query);
  },
};

/** The database a configuration names: PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR. */
export function openConfiguredDatabase(
  config: Pick<Config, "databaseUrl" | "databasePoolSize" | "dataDir" | "pgliteFsync" | "queryStats">,
): Promise<Database> {
  return openDatabase({
    countQueries: config.queryStats,
    poolSize: config.databasePoolSize,
    databaseUrl: config.databaseUrl,
    pgliteDir: config.databaseUrl ? undefined : config.dataDir,
    fsync: config.pgliteFsync,
  });
}

/** The advisory lock migrations run under on PostgreSQL. */
const MIGRATION_LOCK = advisoryKey("migrations");

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { feed: changes, onConnect } = await postgresChangeFeed(options.databaseUrl);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, onConnect });
    // An idle client's error (server restart) must not crash the process.
    pool.on("error", () => {});
    const db = drizzlePg(pool, { schema, ...(options.countQueries && { logger: countingLogger }) });
    // Servers starting together (or a rolling deploy) migrate one after the other: the first
    // applies the migrations, the next finds nothing left to do.
    try {
      const lock = await pool.connect();
      try {
        await lock.query("select pg_advisory_lock($1, $2)", [MIGRATION_LOCK.namespace, MIGRATION_LOCK.id]);
        try {
          if (options.migrations !== false) {
            await migratePg(db, { migrationsFolder: options.migrations ?? migrationsFolder });
            await syncLoginKeys(db);
          }
        } finally {
          await lock.query("select pg_advisory_unlock($1, $2)", [MIGRATION_LOCK.namespace, MIGRATION_LOCK.id]);
        }
      } finally {
        lock.release();
      }
    } catch (err) {
      await changes.close();
      await pool.end().catch(() => {});
      throw err;
    }
    feeds.set(db, changes);
    return {
      db,
      kind: "postgres",
      changes,
      ping: async () => {
        await pool.query("select 1");
      },
      close: async () => {
        await changes.close();
        await pool.end();
      },
      tryAdvisoryLock: async (key) => {
        const client = await pool.connect();
        try {
          const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1, $2) as locked", [
            key.namespace,
            key.id,
          ]);
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
            await client.query("select pg_advisory_unlock($1, $2)", [key.namespace, key.id]);
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
      serializers: { [BYTEA_OID]: byteaBinary },
      parsers: { [BYTEA_OID]: byteaFromHex },
    });
    // drizzle's pglite and node-postgres drivers share the query builder; one type serves both.
    const db = drizzlePglite(client, {
      schema,
      ...(options.countQueries && { logger: countingLogger }),
    }) as unknown as Db;
    // On a loaded template this only confirms that every migration is applied.
    if (options.migrations !== false) {
      await migratePglite(db as never, { migrationsFolder: options.migrations ?? migrationsFolder });
      await syncLoginKeys(db);
    }
    // PGlite has one session, in which advisory locks are re-entrant: the holders in this
    // process are told apart here (no other process can open the same directory).
    const held = new Set<string>();
    const changes = await pgliteChangeFeed(client);
    feeds.set(db, changes);
    return {
      db,
      kind: "pglite",
      changes,
      ping: async () => {
        await client.query("select 1");
      },
      close: async () => {
        await changes.close();
        await client.close();
        unlock();
      },
      tryAdvisoryLock: async (key) => {
        const name = `${key.namespace}:${key.id}`;
        if (held.has(name)) return null;
        held.add(name);
        try {
          await client.query("select pg_advisory_lock($1, $2)", [key.namespace, key.id]);
        } catch (err) {
          held.delete(name);
          throw err;
        }
        return async () => {
          held.delete(name);
          await client.query("select pg_advisory_unlock($1, $2)", [key.namespace, key.id]);
        };
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** The rows of a hand-written statement, on either driver. */
export async function selectRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Runs independent queries: in parallel on the pool, one after another inside a transaction,
 * whose single connection must not get a second query while one is running.
 */
export async function runAll<T extends readonly unknown[]>(
  db: Db | Tx,
  queries: { [K in keyof T]: () => PromiseLike<T[K]> },
): Promise<T> {
  if (isTransaction(db)) {
    const results: unknown[] = [];
    for (const q of queries) results.push(await q());
    return results as unknown as T;
  }
  return (await Promise.all(queries.map((q) => q()))) as unknown as T;
}
