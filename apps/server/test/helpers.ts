import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { LoginResponse, Role } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { inject } from "vitest";
import { type AppDeps, buildApp } from "../src/app";
import { createTokenService } from "../src/auth/tokens";
import { type Config, loadConfig } from "../src/config";
import { type Database, onQuery, openDatabase } from "../src/db/client";
import { facilities } from "../src/db/schema";
import { seedReferenceLists } from "../src/demo/seed";
import { createMailer, type Mailer } from "../src/mail/mailer";
import { hashPassword, useTestPasswordHashing } from "../src/security/passwords";
import { insertUser } from "../src/users/service";
import type {} from "./provided";

/** `TEST_DB=pg` (with DATABASE_URL) runs the API tests on PostgreSQL, else on in-memory PGlite. */
export const onPostgres = process.env.TEST_DB === "pg";

// The API tests make and check thousands of throw-away passwords: cheap hashes, as on the browser
// tests' servers (security/passwords.ts; passwords.test.ts checks the production parameters).
useTestPasswordHashing();

let pgliteTemplate: Blob | undefined;

/**
 * The global setup (test/global-setup.ts) migrated one template database for the run: PGlite
 * starts from its tarball (in memory) or a copy of its directory (on disk), PostgreSQL copies it;
 * openDatabase's migrate then finds nothing to do.
 */
async function openTestDatabase(pgliteDir?: string, countQueries = false): Promise<Database> {
  if (!onPostgres) {
    // Copying the directory takes a tenth of a second; unpacking the tarball into one takes seconds.
    const templateDir = inject("pgliteTemplateDir");
    if (pgliteDir && templateDir) {
      fs.cpSync(templateDir, path.join(pgliteDir, "pglite"), { recursive: true });
      return openDatabase({ pgliteDir, countQueries });
    }
    const template = inject("pgliteTemplate");
    if (template) pgliteTemplate ??= new Blob([fs.readFileSync(template)]);
    return openDatabase({ pgliteLoadDataDir: pgliteTemplate, countQueries, ...(pgliteDir && { pgliteDir }) });
  }
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("TEST_DB=pg needs DATABASE_URL");
  // Every test file gets its own database on the server, dropped when the file is done.
  const name = `cc_test_${crypto.randomBytes(6).toString("hex")}`;
  const template = inject("pgTemplate");
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), countQueries });
  return {
    ...database,
    close: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestContext {
  app: FastifyInstance;
  deps: AppDeps;
  clock: { now: Date };
  close(): Promise<void>;
}

export interface TestOptions {
  env?: Record<string, string>;
  mailer?: Mailer;
  /** Receives the app's log lines (JSON), e.g. to read the security events. */
  logStream?: { write(line: string): void };
  /** PGlite keeps its files in DATA_DIR, as a server does, instead of in this process's memory. */
  pgliteOnDisk?: boolean;
  /** Queries go through the QUERY_STATS logger: db/client.ts `onQuery` sees them. */
  countQueries?: boolean;
}

/** The token secret of every test app: tests sign their own odd tokens with it. */
export const TEST_SECRET = new TextEncoder().encode("t".repeat(48));

/** A fresh app on a fresh database with an adjustable clock. */
export async function createTestApp(options: TestOptions = {}): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-test-"));
  // Every test file's requests come from one IP: its failure ceilings are lifted unless a test sets them.
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    LOGIN_RATE_LIMIT: "1000",
    LOGIN_IP_MAX_FAILURES: "1000",
    API_IP_MAX_ERRORS: "100000",
    UPLOAD_RATE_PER_MINUTE: "1000",
    ...options.env,
  });
  const database = await openTestDatabase(options.pgliteOnDisk ? dataDir : undefined, options.countQueries);
  await seedReferenceLists(database.db);
  const clock = { now: new Date() };
  const now = () => new Date(clock.now);
  const deps: AppDeps = {
    config,
    database,
    tokens: createTokenService(TEST_SECRET, config.tokenLifetimeSeconds, now, config.sessionMaxSeconds),
    mailer: options.mailer ?? createMailer(undefined, config.smtpFrom, () => {}),
    version: { short_hash: "abc1234", date: "2026-11-22T00:00:00Z", version: "0.0.0-test" },
    now,
  };
  const app = await buildApp(deps, options.logStream ? { logStream: options.logStream } : {});
  await app.ready();
  return {
    app,
    deps,
    clock,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const PASSWORD = "Test-1234!";
let passwordHash: Promise<string> | undefined;

export async function createFacility(ctx: TestContext, name = `Haus ${crypto.randomUUID().slice(0, 8)}`) {
  const [row] = await ctx.deps.database.db.insert(facilities).values({ name }).returning();
  return row as { id: number; name: string };
}

let counter = 0;
export interface TestUser {
  id: number;
  login: string;
  roles: Role[];
  facilityId: number | null;
}

/** A user with the given roles (hash computed once per run: argon2 is slow on purpose). */
export async function createUser(
  ctx: TestContext,
  roles: Role[],
  facilityId: number | null,
  extra: { login?: string; email?: string } = {},
): Promise<TestUser> {
  passwordHash ??= hashPassword(PASSWORD);
  counter += 1;
  const login = extra.login ?? `${roles[0]}${counter}`;
  const id = await insertUser(
    ctx.deps.database.db,
    {
      login,
      name: "Test",
      surname: `User ${counter}`,
      password: PASSWORD,
      roles,
      facilityId,
      email: extra.email ?? null,
    },
    await passwordHash,
  );
  return { id, login, roles, facilityId };
}

export async function login(ctx: TestContext, loginName: string, password = PASSWORD): Promise<string> {
  const res = await ctx.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: loginName, password } });
  if (res.statusCode !== 200) throw new Error(`login ${loginName} failed: ${res.statusCode} ${res.body}`);
  return (res.json() as LoginResponse).token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A call of the API as the holder of `token`, with an optional JSON body. */
export function callAs(ctx: TestContext, token: string, method: Method, url: string, payload?: unknown) {
  return ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** The smallest PNG (1×1 px). */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
/** A PNG chunk: its length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(typed.length + 8);
  out.writeUInt32BE(data.length, 0);
  typed.copy(out, 4);
  out.writeUInt32BE(zlib.crc32(typed), typed.length + 4);
  return out;
}

/** A 1×1 RGBA PNG of the colour `rgba`, with the chunks `ancillary` between its IHDR and its IDAT. */
export function onePixelPng(rgba: number, ancillary: Buffer[] = []): Buffer {
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  const pixel = Buffer.alloc(5);
  pixel.writeUInt32BE(rgba >>> 0, 1);
  return Buffer.concat([
    PNG_1X1.subarray(0, 8),
    pngChunk("IHDR", header),
    ...ancillary,
    pngChunk("IDAT", zlib.deflateSync(pixel)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

let pngs = 0;
/** A 1×1 PNG of its own colour each time (a complete image: bytes after IEND are not stored). */
export const freshPng = () => onePixelPng(0x10000000 + ++pngs);

/** The five roles and two facilities of most permission tests. */
export async function createCast(ctx: TestContext) {
  const a = await createFacility(ctx);
  const b = await createFacility(ctx);
  const users = {
    superchris: await createUser(ctx, ["superchris"], null),
    contentmanager: await createUser(ctx, ["contentmanager"], null),
    administrator: await createUser(ctx, ["administrator"], a.id),
    supervisor: await createUser(ctx, ["supervisor"], a.id),
    employee: await createUser(ctx, ["employee"], a.id),
    administratorB: await createUser(ctx, ["administrator"], b.id),
    employeeB: await createUser(ctx, ["employee"], b.id),
  };
  const tokens = {} as Record<keyof typeof users, string>;
  for (const [key, user] of Object.entries(users)) {
    tokens[key as keyof typeof users] = await login(ctx, user.login);
  }
  return { facilityA: a, facilityB: b, users, tokens };
}

/** A TCP port free at this moment, for a real server process a test starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A question of a questionnaire written in authoring by the holder of `token` (an administrator's
 * is their facility's own, a Super-Admin's common content) in `trainingId`: published, or left a
 * draft. Its right answer is the first.
 */
export async function createAuthoredQuestion(
  ctx: TestContext,
  token: string,
  trainingId: number,
  options: { publish: boolean; text?: string },
): Promise<{ questionnaireId: number; questionId: number }> {
  const call = async (url: string, payload?: unknown) => {
    const res = await callAs(ctx, token, "POST", url, payload);
    if (res.statusCode !== 200) throw new Error(`POST ${url} failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const questionnaire = await call("/authoring/questionnaires", { training_id: trainingId, name: "Hausintern" });
  const saved = await call(`/authoring/questionnaires/${questionnaire.id}/questions`, {
    type: "single",
    text: options.text ?? "Wo hängt unser Alarmplan?",
    answers: [
      { text: "Am Empfang", correct: true },
      { text: "Im Keller", correct: false },
    ],
    explanation: "<p>Am Empfang.</p>",
    hint: null,
    media: null,
  });
  if (options.publish) await call(`/authoring/questionnaires/${questionnaire.id}/publish`);
  return { questionnaireId: questionnaire.id, questionId: saved.question_id };
}

/**
 * The statements `run` sends to a database opened with `countQueries`, by kind and table (their
 * values and row counts differ): two requests that must do the same work compare equal.
 */
export async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const stop = onQuery((q) => {
    const text = q.trim().toLowerCase();
    const verb = /^(select|insert into|update|delete from|begin|commit|rollback|savepoint|release)/.exec(text);
    const table = /(?:from|into|update)\s+"?([a-z_]+)"?/.exec(text);
    seen.push(`${verb?.[1] ?? text.slice(0, 30)} ${table?.[1] ?? ""}`.trim());
  });
  try {
    await run();
  } finally {
    stop();
  }
  return seen;
}
