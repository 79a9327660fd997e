/**
 * npm run bench: generates a dataset, starts the real server on PGlite and then (when
 * DATABASE_URL is set) on PostgreSQL, and loads each endpoint with autocannon. Prints req/s,
 * p50 and p99 per endpoint and its throughput relative to /api/health in the same run.
 * Not part of npm test. BENCH_SECONDS (10), BENCH_FACILITIES (10), BENCH_USERS_PER_FACILITY (300).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { DEMO_CONTENT } from "../../apps/server/src/bootstrap";
import { loadPackage } from "../../apps/server/src/content/package";
import { importPackage } from "../../apps/server/src/content/service";
import type { Db } from "../../apps/server/src/db/client";
import { openDatabase } from "../../apps/server/src/db/client";
import { seedReferenceLists } from "../../apps/server/src/demo/seed";
import { BENCH_PASSWORD, type Dataset, generateDataset } from "./dataset";
import { type AnswerKey, benchAnswers, rightAnswers } from "./quiz";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const FACILITIES = Number(process.env.BENCH_FACILITIES ?? 10);
const PER_FACILITY = Number(process.env.BENCH_USERS_PER_FACILITY ?? 300);
const root = new URL("../../", import.meta.url).pathname;

export interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function startServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
  // Another server already on the port would answer the health poll and be measured instead.
  const busy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${port} is already in use; stop whatever listens there`);
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: "error",
      LOGIN_RATE_LIMIT: "100000000",
      DEMO_DATA: "false",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise<ChildProcess>((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const poll = async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.ok) return resolve(child);
      } catch {
        // not up yet
      }
      if (Date.now() > deadline || child.exitCode !== null) return reject(new Error("server did not start"));
      setTimeout(poll, 250);
    };
    void poll();
  });
}

async function load(name: string, opts: autocannon.Options): Promise<Result> {
  const result = await autocannon({ connections: 10, duration: SECONDS, ...opts });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function prepare(db: Db): Promise<{ dataset: Dataset; key: AnswerKey }> {
  await seedReferenceLists(db);
  const started = performance.now();
  const content = await importPackage(db, loadPackage(DEMO_CONTENT));
  console.log(`content import: ${content.questions} questions in ${Math.round(performance.now() - started)} ms`);
  const dataset = await generateDataset(db, FACILITIES, PER_FACILITY);
  return { dataset, key: await rightAnswers(db) };
}

async function benchServer(label: string, port: number, dataset: Dataset, key: AnswerKey): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  const loginRes = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: dataset.sample.login, password: BENCH_PASSWORD }),
  });
  if (!loginRes.ok) throw new Error(`bench login failed: ${loginRes.status} ${await loginRes.text()}`);
  const { token } = (await loginRes.json()) as { token: string };
  // No content-type on the bodyless POST: a JSON content type with no body is a 400.
  const auth = { authorization: `Bearer ${token}` };
  const results: Result[] = [];
  results.push(await load("GET /api/health", { url: `${base}/api/health` }));
  results.push(
    await load("POST /api/auth/login", {
      url: `${base}/api/auth/login`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: dataset.sample.login, password: BENCH_PASSWORD }),
    }),
  );
  results.push(
    await load("POST /api/auth/refresh", { url: `${base}/api/auth/refresh`, method: "POST", headers: auth }),
  );
  results.push(
    await load("GET /api/auth/users/{id}", { url: `${base}/api/auth/users/${dataset.sample.id}`, headers: auth }),
  );
  results.push(await benchAnswers(base, dataset, key, BENCH_PASSWORD));
  const health = results[0]?.rps || 1;
  console.log(
    `\n${label}: ${dataset.facilities} facilities, ${dataset.users} users, ${SECONDS} s per endpoint, 10 connections`,
  );
  console.log(
    `${"endpoint".padEnd(28)}${"req/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"× health".padStart(10)}${"errors".padStart(8)}`,
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(28)}${r.rps.toFixed(0).padStart(10)}${String(r.p50).padStart(9)}${String(r.p99).padStart(9)}${(r.rps / health).toFixed(3).padStart(10)}${String(r.errors).padStart(8)}`,
    );
  }
}

async function onPglite(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-"));
  try {
    const database = await openDatabase({ pgliteDir: dataDir, fsync: true });
    const { dataset, key } = await prepare(database.db);
    await database.close();
    // An inherited DATABASE_URL would send this server to PostgreSQL instead.
    const server = await startServer(3901, { DATA_DIR: dataDir, DATABASE_URL: "" });
    try {
      await benchServer("PGlite", 3901, dataset, key);
    } finally {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(url: string): Promise<void> {
  const name = "carecampus_bench";
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-pg-"));
  try {
    const database = await openDatabase({ databaseUrl: dbUrl.toString() });
    const { dataset, key } = await prepare(database.db);
    await database.close();
    const server = await startServer(3902, { DATABASE_URL: dbUrl.toString(), DATA_DIR: dataDir });
    try {
      await benchServer("PostgreSQL", 3902, dataset, key);
    } finally {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}

await onPglite();
if (process.env.DATABASE_URL) await onPostgres(process.env.DATABASE_URL);
else console.log("\nDATABASE_URL is not set: the PostgreSQL run is skipped.");
