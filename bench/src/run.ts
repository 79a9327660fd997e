/**
 * npm run bench: generates a dataset, starts the real server on PGlite and then (when
 * DATABASE_URL is set) on PostgreSQL, and loads each endpoint with autocannon. Prints req/s,
 * p50 and p99 per endpoint and its throughput relative to /api/health in the same run.
 * Then times CSV imports of BENCH_IMPORT_SIZES users (1000,10000), and the progress overview
 * and xlsx export on a dataset of 50 facilities and 10 000 learners (BENCH_OVERVIEW=false skips),
 * the wiki search over BENCH_WIKI_PAGES (1000) pages, and the quiz-load scenario (quiz-load.ts:
 * BENCH_QUIZ_LEARNERS_PGLITE 300 and BENCH_QUIZ_LEARNERS_PG 2000 learners, BENCH_QUIZ_SECONDS 60).
 * Then, on PostgreSQL, the kill run (quiz-kill.ts: WORKERS=2, one worker killed with SIGKILL in the
 * middle of BENCH_KILL_SECONDS (20) of quiz load by BENCH_KILL_LEARNERS (as many as quiz-load's) learners).
 * Then the staff start page (staff-home.ts: the demo content, one facility of 2 000 people).
 * Then the employee's start page in Chromium throttled like a slow phone (slow-start.ts).
 * BENCH_ONLY=overview|wiki|staff-home|slow-start|quiz-load|quiz-kill runs one part.
 * Not part of npm test. BENCH_SECONDS (10), BENCH_FACILITIES (10), BENCH_USERS_PER_FACILITY (300).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_TIME_ZONE } from "@carecampus/contract";
import autocannon from "autocannon";
import pg from "pg";
import { DEMO_CONTENT } from "../../apps/server/src/bootstrap";
import { loadPackage } from "../../apps/server/src/content/package";
import { importPackage } from "../../apps/server/src/content/service";
import type { Db } from "../../apps/server/src/db/client";
import { openDatabase } from "../../apps/server/src/db/client";
import { seedReferenceLists } from "../../apps/server/src/demo/seed";
import { runExpiryJob } from "../../apps/server/src/notifications/expiry-job";
import { BENCH_PASSWORD, type Dataset, generateDataset } from "./dataset";
import { benchDatabaseName, withFreshDatabase } from "./fresh";
import { benchImport, printImports } from "./import";
import { benchOverview, generateOverviewDataset } from "./overview";
import { type AnswerKey, benchAnswers, rightAnswers } from "./quiz";
import { quizKill } from "./quiz-kill";
import { quizLoad } from "./quiz-load";
import { startServer, stopServer } from "./server";
import { benchSlowStart } from "./slow-start";
import { benchStaffHome, generateStaffHomeDataset } from "./staff-home";
import { benchWikiSearch, generateWikiDataset } from "./wiki";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const FACILITIES = Number(process.env.BENCH_FACILITIES ?? 10);
const PER_FACILITY = Number(process.env.BENCH_USERS_PER_FACILITY ?? 300);
const IMPORT_SIZES = (process.env.BENCH_IMPORT_SIZES ?? "1000,10000").split(",").map(Number).filter(Boolean);

export interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
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
  const su = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: dataset.superuser, password: BENCH_PASSWORD }),
  });
  const suToken = ((await su.json()) as { token: string }).token;
  const imports = [];
  for (const size of IMPORT_SIZES) imports.push(await benchImport(base, suToken, dataset.facilityNames, size));
  printImports(imports);
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
      await stopServer(server);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(url: string): Promise<void> {
  const name = benchDatabaseName();
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
      await stopServer(server);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}

async function overview(label: string, url: string | undefined, port: number): Promise<void> {
  await withFreshDatabase(
    url,
    "overview",
    async (db) => {
      // The content is in place first: a first start would otherwise import it and retire the rest.
      await importPackage(db, loadPackage(DEMO_CONTENT));
      const started = performance.now();
      const { certificates } = await generateOverviewDataset(db);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`\n${label}: overview dataset with ${certificates} certificates generated in ${seconds} s`);
      // The expiry job's first run on that dataset: every certificate due in the next 30 days.
      const jobStarted = performance.now();
      const job = await runExpiryJob({ database: { db }, config: { timeZone: DEFAULT_TIME_ZONE } }, new Date());
      console.log(
        `${label}: expiry notification job, first run: ${job.notices} notices and ${job.summaries} facility summaries in ${((performance.now() - jobStarted) / 1000).toFixed(1)} s`,
      );
    },
    (env) => benchOverview(label, port, env),
  );
}

async function staffHome(label: string, url: string | undefined, port: number): Promise<void> {
  await withFreshDatabase(
    url,
    "staff_home",
    async (db) => {
      await generateStaffHomeDataset(db);
    },
    (env) => benchStaffHome(label, port, env),
  );
}

async function wiki(label: string, url: string | undefined, port: number): Promise<void> {
  await withFreshDatabase(url, "wiki", generateWikiDataset, (env) => benchWikiSearch(label, port, env));
}

/** BENCH_ONLY=overview, =wiki, =staff-home, … runs that part alone. */
const only = process.env.BENCH_ONLY;
const withOverview = process.env.BENCH_OVERVIEW !== "false" && (!only || only === "overview");
const withEndpoints = !only;
const withWiki = !only || only === "wiki";
const withStaffHome = !only || only === "staff-home";
const withSlowStart = !only || only === "slow-start";
const withQuizLoad = !only || only === "quiz-load";
const withQuizKill = !only || only === "quiz-kill";
const QUIZ_PGLITE = Number(process.env.BENCH_QUIZ_LEARNERS_PGLITE ?? 300);
const QUIZ_PG = Number(process.env.BENCH_QUIZ_LEARNERS_PG ?? 2000);
const KILL_LEARNERS = Number(process.env.BENCH_KILL_LEARNERS ?? QUIZ_PG);
if (withEndpoints) await onPglite();
if (withOverview) await overview("PGlite", undefined, 3903);
if (withWiki) await wiki("PGlite", undefined, 3905);
if (withStaffHome) await staffHome("PGlite", undefined, 3910);
if (withSlowStart) await benchSlowStart(3912);
if (withQuizLoad && QUIZ_PGLITE > 0) await quizLoad("PGlite", undefined, 3907, QUIZ_PGLITE);
if (process.env.DATABASE_URL) {
  if (withEndpoints) await onPostgres(process.env.DATABASE_URL);
  if (withOverview) await overview("PostgreSQL", process.env.DATABASE_URL, 3904);
  if (withWiki) await wiki("PostgreSQL", process.env.DATABASE_URL, 3906);
  if (withStaffHome) await staffHome("PostgreSQL", process.env.DATABASE_URL, 3911);
  if (withQuizLoad && QUIZ_PG > 0) await quizLoad("PostgreSQL", process.env.DATABASE_URL, 3908, QUIZ_PG);
  if (withQuizKill && KILL_LEARNERS > 0) await quizKill(process.env.DATABASE_URL, 3909, KILL_LEARNERS);
} else console.log("\nDATABASE_URL is not set: the PostgreSQL run is skipped.");
