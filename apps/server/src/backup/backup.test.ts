import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { PDFDocument } from "pdf-lib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, copyPgliteTemplate, createTestApp, onPostgres, type TestContext } from "../../test/helpers";
import { buildApp } from "../app";
import { recordAudit, verifyAuditChain } from "../audit/record";
import { loadSecret } from "../auth/tokens";
import { seedFirstStart } from "../bootstrap";
import { type Db, openDatabase } from "../db/client";
import { auditLog, facilities } from "../db/schema";
import { DEMO_PASSWORD } from "../demo/seed";
import { serverPath } from "../paths";
import { type BackupChannel, CHANNEL_FILE, readChannel, startBackupChannel } from "./channel";
import { runBackupCommand } from "./command";
import { EXCLUDED_ROWS, ident, tablesToCopy } from "./dump";
import { BackupError, checkBackup } from "./format";
import { knownMigrations } from "./migrations";
import { type RestoreTarget, restoreBackup, tablesWithData } from "./restore";
import { type BackupSource, backupInstallation } from "./service";

/*
 * Backups that restore (issue 28): a running installation with the demo data is backed up (PGlite:
 * through the server's channel; PostgreSQL: through DATABASE_URL), restored into an empty one, and
 * the restored installation answers as the first did. On the database the run uses (TEST_DB=pg).
 */

let ctx: TestContext;
let source: BackupSource;
let channel: BackupChannel | null = null;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "cc-backup-test-"));
const backupFile = path.join(work, "backup.ccb");
const cleanups: (() => Promise<void>)[] = [];
/** The empty installation the backup is restored into (first refused a forged file). */
let target: RestoreTarget;
/** The entries of the source installation's audit trail. */
let auditEntries = 0;
/** What `npm run backup` of beforeAll (in this process) printed. */
let backupRun: { printed: string; error: unknown };
/**
 * `npm run restore` of a file that is no backup: the real command, a process of its own, which
 * beforeAll starts and the command's test waits for (a process loads the server's code through
 * tsx: seconds, which the seeding passes meanwhile).
 */
let notBackupCommand: Promise<CommandRun> | undefined;
/** beforeAll's backup, read and checked (once: it reads the whole file). */
let backupChecked: ReturnType<typeof checkBackup> | undefined;
const checkedBackup = () => {
  backupChecked ??= checkBackup(backupFile);
  return backupChecked;
};
/**
 * The source's tables as beforeAll left them: nothing writes to them before the writer test, so
 * the tests before it compute this once (it reads every row, media included).
 */
let sourceFingerprint: ReturnType<typeof fingerprint> | undefined;
const sourceAsBackedUp = () => {
  sourceFingerprint ??= fingerprint(ctx.deps.database.db);
  return sourceFingerprint;
};
/** The target's tables after the restore and the requests the restore test made. */
let targetFingerprint: Awaited<ReturnType<typeof fingerprint>>;
const silent = () => {};

interface Installation {
  dataDir: string;
  databaseUrl?: string | undefined;
}
interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const { DATABASE_URL: _, ...withoutDatabaseUrl } = process.env;
/** The environment of a command on `installation`: its DATA_DIR, and its DATABASE_URL if any. */
const envFor = (installation: Installation) => ({
  ...withoutDatabaseUrl,
  DATA_DIR: installation.dataDir,
  ...(installation.databaseUrl ? { DATABASE_URL: installation.databaseUrl } : {}),
});

/** The real command, a process of its own (it loads the server's code through tsx: seconds). */
const cli = (args: string[], installation: Installation) =>
  new Promise<CommandRun>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", serverPath("src/backup/cli.ts"), ...args],
      { env: envFor(installation), cwd: serverPath("../../") },
      (err, stdout, stderr) => resolve({ code: err ? (err.code as number) : 0, stdout, stderr }),
    );
  });

/** The same command in this process (runBackupCommand): what it printed, and the error it failed with. */
async function inProcess(args: string[], installation: Installation) {
  const printed: string[] = [];
  const error = await runBackupCommand(args, envFor(installation), (line) => printed.push(line)).then(
    () => null,
    (err: unknown) => err,
  );
  return { printed: printed.join("\n"), error };
}

/** PostgreSQL: the URL of a database of its own on the test server. */
function pgUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${name}`;
  return url.toString();
}

async function pgAdmin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/**
 * An installation without anything of CareCampus, in which `statements` ran: a new PostgreSQL
 * database, or a new DATA_DIR. PGlite: not a new cluster (its initdb takes seconds) but a copy of
 * the run's migrated template (test/global-setup.ts) with CareCampus dropped, its tables, functions
 * and migrations: a restore migrates it from nothing, as a new one.
 */
async function emptyTarget(...statements: string[]): Promise<RestoreTarget> {
  const dataDir = fs.mkdtempSync(path.join(work, "target-"));
  let installation: RestoreTarget = { dataDir };
  if (onPostgres) {
    const name = `cc_restore_${crypto.randomBytes(6).toString("hex")}`;
    await pgAdmin(`create database ${name}`);
    cleanups.push(() => pgAdmin(`drop database if exists ${name} with (force)`));
    installation = { dataDir, databaseUrl: pgUrl(name) };
  } else {
    copyPgliteTemplate(dataDir);
    statements.unshift("drop schema drizzle cascade", "drop schema public cascade", "create schema public");
  }
  if (statements.length > 0) {
    const db = await openTarget(installation, { migrations: false });
    try {
      for (const statement of statements) await db.db.execute(sql.raw(statement));
    } finally {
      await db.close();
    }
  }
  return installation;
}

const openTarget = (target: RestoreTarget, options: { migrations?: false } = {}) =>
  target.databaseUrl
    ? openDatabase({ databaseUrl: target.databaseUrl, ...options })
    : openDatabase({ pgliteDir: target.dataDir, ...options });

/** Every table's row count and a hash of all its rows (as to_jsonb writes them, sorted). */
async function fingerprint(db: Db): Promise<Record<string, { rows: number; md5: string }>> {
  const result: Record<string, { rows: number; md5: string }> = {};
  for (const table of await tablesToCopy(db)) {
    // The rows a backup leaves out by design (the token secret) are left out here too.
    const where = EXCLUDED_ROWS[table] ? ` where ${EXCLUDED_ROWS[table]}` : "";
    const { rows } = await db.execute<{ n: number; md5: string }>(
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(to_jsonb(t)::text, E'\\n' order by to_jsonb(t)::text), '')) as md5 from ${ident(table)} t${where}`,
      ),
    );
    result[table] = { rows: rows[0]?.n ?? 0, md5: rows[0]?.md5 ?? "" };
  }
  return result;
}

async function sequences(db: Db) {
  const { rows } = await db.execute(sql`select sequencename, last_value::text from pg_sequences order by 1`);
  return rows;
}

function flipByte(file: string, at: number): string {
  const copy = path.join(work, `damaged-${at}.ccb`);
  const bytes = fs.readFileSync(file);
  bytes[at] = (bytes[at] as number) ^ 0x01;
  fs.writeFileSync(copy, bytes);
  return copy;
}

beforeAll(async () => {
  const notBackup = path.join(work, "not-a-backup.ccb");
  fs.writeFileSync(notBackup, "no backup\n");
  notBackupCommand = cli(["restore", notBackup, "--check"], { dataDir: path.join(work, "unused") });
  ctx = await createTestApp({ pgliteOnDisk: true });
  const db = ctx.deps.database.db;
  await seedFirstStart(
    db,
    { demoData: true, adminPassword: undefined, timeZone: ctx.deps.config.timeZone },
    ctx.clock.now,
  );
  // An audit trail of a few entries, with names outside the hash (after those of the seeding: the
  // demo content's import is one).
  const seeded = await db.$count(auditLog);
  auditEntries = seeded + 3;
  const [facility] = await db.select({ id: facilities.id }).from(facilities).limit(1);
  for (let i = 0; i < 3; i++) {
    await db.transaction((tx) =>
      recordAudit(
        tx,
        {
          kind: "facility.created",
          actor: null,
          facilityId: facility?.id,
          data: { i },
          personal: { subject: `Anna ${i}` },
        },
        ctx.clock.now,
      ),
    );
  }
  // The token secret as PostgreSQL keeps it (auth/tokens.ts): a backup must not carry it.
  await loadSecret(undefined, { dataDir: ctx.deps.config.dataDir, db });
  if (onPostgres) {
    const { rows } = await db.execute<{ name: string }>(sql`select current_database() as name`);
    source = { dataDir: ctx.deps.config.dataDir, databaseUrl: pgUrl(rows[0]?.name as string) };
  } else {
    // The test app holds the data directory as a server does: the backup must go through the channel.
    source = { dataDir: ctx.deps.config.dataDir };
    channel = await startBackupChannel(ctx.deps.database, ctx.deps.config.dataDir, silent);
  }
  // The backup every test reads, by the command (PGlite: through the channel, as from another process).
  backupRun = await inProcess(["backup", backupFile], source);
  if (backupRun.error) throw backupRun.error;
}, 120_000);

afterAll(async () => {
  await notBackupCommand;
  await channel?.close();
  await ctx?.close();
  for (const cleanup of cleanups) await cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

/** The rows of `table` in a backup file, parsed. */
function rowsIn(file: string, table: string): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  let inside = false;
  for (const line of zlib.gunzipSync(fs.readFileSync(file)).toString("utf8").split("\n")) {
    if (line.startsWith('{"$":')) inside = line.startsWith(`{"$":"table","name":"${table}"`);
    else if (inside) rows.push(JSON.parse(line));
  }
  return rows;
}

// Whole installations are backed up, restored and started here: 5 s alone, but several times that
// while the browser lane builds and seeds on the same two cores (a CI run went past 30 s).
describe("a backup of a running installation", { timeout: 120_000 }, () => {
  it("holds every table of the database, with its rows, and checks as intact", async () => {
    const { header, manifest } = await checkedBackup();
    expect(header.database).toBe(onPostgres ? "postgres" : "pglite");
    const known = knownMigrations();
    expect(header.migration).toEqual({ count: known.length, tag: known.at(-1)?.tag, when: known.at(-1)?.when });
    // Generic: every table the database has is in the backup, none is missed (a new table too).
    const { rows } = await ctx.deps.database.db.execute<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    expect(manifest.tables.map((t) => t.name).sort()).toEqual(rows.map((r) => r.name).sort());
    const now = await sourceAsBackedUp();
    for (const t of manifest.tables) expect([t.name, t.rows]).toEqual([t.name, now[t.name]?.rows]);
    expect(now.media_chunks?.rows).toBeGreaterThan(0);
    expect(now.audit_log?.rows).toBe(auditEntries);
    expect(now.certificates?.rows).toBeGreaterThan(0);
    // Everything of app_meta but the token secret.
    const { rows: secret } = await ctx.deps.database.db.execute(sql`select 1 from app_meta where key = 'jwt_secret'`);
    expect(secret).toHaveLength(1);
    const meta = rowsIn(backupFile, "app_meta").map((r) => r.key);
    expect(meta).toContain("content_version");
    expect(meta).not.toContain("jwt_secret");
  });

  it("is refused when a byte changed or the file was cut off, and restores nothing", async () => {
    const size = fs.statSync(backupFile).size;
    // A byte in the middle of the compressed data: gzip's own check or ours finds it.
    await expect(checkBackup(flipByte(backupFile, Math.floor(size / 2)))).rejects.toThrow(BackupError);
    const cut = path.join(work, "cut.ccb");
    fs.writeFileSync(cut, fs.readFileSync(backupFile).subarray(0, Math.floor(size * 0.8)));
    await expect(checkBackup(cut)).rejects.toThrow(/damaged|incomplete/);

    // A value changed inside an intact gzip: only the checksums can tell.
    const lines = zlib.gunzipSync(fs.readFileSync(backupFile)).toString("utf8");
    const changed = lines.replace('"login": "employee"', '"login": "employeX"');
    expect(changed).not.toBe(lines);
    const forged = path.join(work, "forged.ccb");
    // Gzip's fastest level: any level reads back the same.
    fs.writeFileSync(forged, zlib.gzipSync(changed, { level: 1 }));
    await expect(checkBackup(forged)).rejects.toThrow(/rows of table users do not match their checksum/);

    // The restore finds it at the end of the users (after migrating the target from nothing and
    // loading the facilities): it rolls back, the target stays empty.
    target = await emptyTarget();
    await expect(restoreBackup(forged, target, silent)).rejects.toThrow(/checksum/);
    const db = await openTarget(target);
    expect(await tablesWithData(db.db)).toEqual([]);
    await db.close();
  });

  it("restores into an empty installation that answers as the first did", async () => {
    // The target is migrated but empty (the refused restore above): that counts as empty.
    await restoreBackup(backupFile, target, silent);
    const restored = await openTarget(target);
    let app: FastifyInstance | null = null;
    try {
      // Every row of every table, bytes and JSON exact, and the sequences where they were.
      expect(await fingerprint(restored.db)).toEqual(await sourceAsBackedUp());
      expect(await sequences(restored.db)).toEqual(await sequences(ctx.deps.database.db));
      const chain = await verifyAuditChain(restored.db);
      expect(chain).toEqual(await verifyAuditChain(ctx.deps.database.db));
      expect(chain).toMatchObject({ intact: true, entries: auditEntries });

      app = await buildApp({ ...ctx.deps, database: restored });
      await app.ready();
      const apps = [ctx.app, app];
      const tokens: string[] = [];
      for (const a of apps) {
        const res = await a.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { login: "admin", password: DEMO_PASSWORD },
        });
        expect(res.statusCode).toBe(200);
        tokens.push(res.json().token);
      }
      const both = (url: string) =>
        Promise.all(
          apps.map(async (a, i) => {
            const res = await a.inject({ method: "GET", url: `/api${url}`, headers: bearer(tokens[i] as string) });
            expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
            return res;
          }),
        );
      const first = async (q: ReturnType<typeof sql>) => (await restored.db.execute<{ id: number }>(q)).rows[0]?.id;
      const employee = await first(sql`select id from users where login = 'employee'`);
      const topic = await first(sql`select id from topics order by id limit 1`);
      const certificate = await first(
        sql`select c.id from certificates c join users u on u.id = c.user_id
            where u.facility_id = (select facility_id from users where login = 'admin') order by c.id limit 1`,
      );
      const image = await first(sql`select id from media where kind = 'image' order by size desc limit 1`);
      for (const url of [
        "/auth/admin/users",
        "/auth/admin/facilities",
        `/progress/admin/users/${employee}`,
        `/progress/admin/topics/${topic}`,
        "/wiki",
      ]) {
        const [a, b] = await both(url);
        expect(b?.json(), url).toEqual(a?.json());
      }
      // The same certificate as a PDF (its dates are the certificate's; only the file's own
      // modification time, the second it was made, may differ), and the same bytes of a media file.
      const [pdfA, pdfB] = await both(`/progress/export/certificate?id=${certificate}`);
      const withoutModDate = async (bytes: Buffer) => {
        const doc = await PDFDocument.load(bytes, { updateMetadata: false });
        doc.setModificationDate(new Date(0));
        return Buffer.from(await doc.save({ useObjectStreams: false }));
      };
      expect(pdfA?.rawPayload.length).toBeGreaterThan(1000);
      const [normalA, normalB] = await Promise.all([pdfA, pdfB].map((r) => withoutModDate(r?.rawPayload as Buffer)));
      expect(normalB?.equals(normalA as Buffer)).toBe(true);
      const [imgA, imgB] = await both(`/static/image/${image}`);
      expect(imgA?.rawPayload.length).toBeGreaterThan(0);
      expect(imgB?.rawPayload.equals(imgA?.rawPayload as Buffer)).toBe(true);
      targetFingerprint = await fingerprint(restored.db);
    } finally {
      await app?.close();
      await restored.close();
    }
  });

  it("is refused by a database that holds something else, which stays as it was", async () => {
    const other = await emptyTarget("create table invoices (id int)");
    await expect(restoreBackup(backupFile, other, silent)).rejects.toThrow(/tables but no CareCampus migrations/);
    const after = await openTarget(other, { migrations: false });
    const { rows } = await after.db.execute<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = 'public'`,
    );
    await after.close();
    expect(rows.map((r) => r.name)).toEqual(["invoices"]);
  });

  it("of a newer version is refused", async () => {
    const lines = zlib.gunzipSync(fs.readFileSync(backupFile)).toString("utf8");
    const newer = lines.replace(
      /"migration":\{"count":\d+,"tag":"[^"]+"/,
      '"migration":{"count":999,"tag":"0998_future"',
    );
    const file = path.join(work, "newer.ccb");
    fs.writeFileSync(file, zlib.gzipSync(newer, { level: 1 }));
    // Refused before the target is touched.
    await expect(restoreBackup(file, { dataDir: path.join(work, "never") }, silent)).rejects.toThrow(
      /0998_future, newer than this CareCampus knows/,
    );
    expect(fs.existsSync(path.join(work, "never"))).toBe(false);
  });
});

describe("a backup while the server writes", { timeout: 120_000 }, () => {
  it("holds one moment: each writer's transaction wholly or not at all", async () => {
    const db = ctx.deps.database.db;
    let stop = false;
    let written = 0;
    // Each transaction adds a facility and its audit entry: a backup that read the tables at
    // different moments would hold more of one than of the other. One every 20 ms is dozens while
    // a backup reads, and leaves the processor to it (one right after another, the writer took
    // five seconds of it here, for hundreds of rows nobody reads).
    const writer = (async () => {
      while (!stop) {
        await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(facilities)
            .values({ name: `Writer ${written}` })
            .returning({ id: facilities.id });
          await recordAudit(
            tx,
            { kind: "facility.created", actor: null, facilityId: row?.id, data: { writer: written } },
            ctx.clock.now,
          );
        });
        written++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      while (written < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      const file = path.join(work, "while-writing.ccb");
      const before = written;
      await backupInstallation(source, file);
      const during = written;
      // The writer went on while the backup was made (PGlite, one session: around its transaction).
      expect(during).toBeGreaterThan(before);
      while (written < during + 3) await new Promise((resolve) => setTimeout(resolve, 5));
      stop = true;
      await writer;

      const names = rowsIn(file, "facilities")
        .map((r) => r.name as string)
        .filter((n) => n.startsWith("Writer "));
      const entries = rowsIn(file, "audit_log").filter((r) => (r.data as { writer?: number }).writer !== undefined);
      expect(names.length).toBeGreaterThan(0);
      expect(entries.length).toBe(names.length);
      // What it holds is a prefix of the writer's transactions: those before one moment.
      expect(names.length).toBeLessThan(written);
      expect(names.sort((a, b) => a.localeCompare(b, "en", { numeric: true }))).toEqual(
        Array.from({ length: names.length }, (_, i) => `Writer ${i}`),
      );
    } finally {
      stop = true;
      await writer;
    }
  });
});

// Two real commands, processes of their own (a failing one started by beforeAll, a backup here):
// on a busy two-core machine they can take longer than the default 30 s, as the seeding kill test
// in bootstrap.test.ts. The other commands run in this process, through the same
// runBackupCommand that cli.ts runs.
describe("npm run backup and npm run restore", { timeout: 120_000 }, () => {
  it("back up the running installation, check the file, and refuse a file that is no backup (exit code 1) or an installation with data, leaving it as it was", async () => {
    expect(backupRun.error).toBeNull();
    expect(backupRun.printed).toMatch(/^Wrote .*backup\.ccb: .* tables, \d+ rows; checked\./);
    // Success as a process too: the real command backs up the running installation, prints, and
    // exits with 0 (nothing it opened keeps it alive).
    const real = await cli(["backup", path.join(work, "cli.ccb")], source);
    expect(real.stderr).toBe("");
    expect(real.stdout).toMatch(/^Wrote .*cli\.ccb: .* tables, \d+ rows; checked\./);
    expect(real.code).toBe(0);
    // An error: its reason on standard error, exit code 1.
    const notBackup = await notBackupCommand;
    expect(notBackup?.stdout).toBe("");
    expect(notBackup?.stderr).toMatch(/not-a-backup\.ccb is damaged or no CareCampus backup/);
    expect(notBackup?.code).toBe(1);

    const check = await inProcess(["restore", backupFile, "--check"], { dataDir: path.join(work, "unused") });
    expect(check.error).toBeNull();
    expect(check.printed).toMatch(/is intact: CareCampus .* tables, \d+ rows\./);

    // The installation restored above holds data now.
    const refused = await inProcess(["restore", backupFile], target);
    expect(refused.error).toBeInstanceOf(BackupError);
    expect((refused.error as Error).message).toMatch(
      /^The target installation is not empty \(\w+: \d+ rows?, .* and \d+ more tables\)\. Restore only into an empty installation/,
    );
    const after = await openTarget(target);
    expect(await fingerprint(after.db)).toEqual(targetFingerprint);
    await after.close();
  });
});

describe.skipIf(onPostgres)("the backup channel of a PGlite server", () => {
  it("answers only with the secret of DATA_DIR, on 127.0.0.1, and goes with the server", async () => {
    const dataDir = ctx.deps.config.dataDir;
    const info = readChannel(dataDir);
    expect(info).not.toBeNull();
    expect(fs.statSync(path.join(dataDir, CHANNEL_FILE)).mode & 0o777).toBe(0o600);
    const ask = (authorization?: string) =>
      fetch(`http://127.0.0.1:${info?.port}/backup`, authorization ? { headers: { authorization } } : {});
    expect((await ask()).status).toBe(401);
    expect((await ask(`Bearer ${"x".repeat(info?.secret.length ?? 0)}`)).status).toBe(401);
    const ok = await ask(`Bearer ${info?.secret}`);
    expect(ok.status).toBe(200);
    // A backup begins: its first line shows it (the whole file is what beforeAll's backup read
    // through this channel). The reader then goes away, as a stopped `npm run backup` would.
    const reader = (ok.body as ReadableStream<Uint8Array>).getReader();
    const received: Uint8Array[] = [];
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      received.push(value);
      text = zlib.gunzipSync(Buffer.concat(received), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString("utf8");
    }
    await reader.cancel();
    expect(text).toMatch(/^\{"\$":"carecampus-backup"/);
    // The server gives up that backup: the database answers again (PGlite's one session waits
    // for the backup's transaction).
    await ctx.deps.database.db.execute(sql`select 1`);
    // Only the loopback address: another interface of this machine gets no answer.
    const other = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === "IPv4" && !a.internal);
    if (other) await expect(fetch(`http://${other.address}:${info?.port}/backup`)).rejects.toThrow();
    await channel?.close();
    channel = null;
    expect(readChannel(dataDir)).toBeNull();
  });

  it("reads a stopped installation directly, past a channel file its killed server left", async () => {
    // An installation nobody holds: a copy of the run's template (test/global-setup.ts), closed.
    // A stale channel file names a dead port.
    const dataDir = fs.mkdtempSync(path.join(work, "stopped-"));
    copyPgliteTemplate(dataDir);
    fs.writeFileSync(path.join(dataDir, CHANNEL_FILE), JSON.stringify({ port: 1, secret: "gone", pid: 1 }));
    const file = path.join(work, "stopped.ccb");
    // backupInstallation reads back and checks what it wrote: its manifest is the file's.
    const { manifest } = await backupInstallation({ dataDir }, file);
    const names = (m: { tables: { name: string }[] }) => m.tables.map((t) => t.name);
    expect(names(manifest)).toEqual(names((await checkedBackup()).manifest));
  });
});
