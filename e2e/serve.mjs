// Starts one CareCampus server for the browser tests on a fresh, throw-away database: a PGlite
// data directory; or, with the argument `postgres` while DATABASE_URL names a PostgreSQL server
// (as in CI), a database of its own there, dropped again when the server stops.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const [port, ...args] = process.argv.slice(2);
const onPostgres = args.includes("postgres") && Boolean(process.env.DATABASE_URL);
const pairs = args.filter((a) => a !== "postgres");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cc-e2e-${port}-`));
const env = { ...process.env, PORT: port, HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" };
delete env.DATABASE_URL;
for (const pair of pairs) {
  const i = pair.indexOf("=");
  env[pair.slice(0, i)] = pair.slice(i + 1);
}

/** Runs `statement` on the PostgreSQL server of DATABASE_URL (its maintenance connection). */
async function admin(statement) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

let database;
if (onPostgres) {
  const url = new URL(process.env.DATABASE_URL);
  database = `${url.pathname.slice(1) || "postgres"}_e2e_${port}`;
  await admin(`drop database if exists "${database}" with (force)`);
  await admin(`create database "${database}"`);
  url.pathname = `/${database}`;
  env.DATABASE_URL = url.toString();
  // A production PostgreSQL never gets demo users unasked; these tests ask for them.
  env.DEMO_DATA = "true";
}

const root = new URL("..", import.meta.url).pathname;
// The bundle `npm start` runs (npm run e2e builds it first): the tests see what users get.
const child = spawn(process.execPath, ["--enable-source-maps", "apps/server/dist/main.mjs"], {
  cwd: root,
  env,
  stdio: "inherit",
});
const stop = () => child.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("exit", async (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (database) await admin(`drop database if exists "${database}" with (force)`).catch(() => {});
  process.exit(code ?? 0);
});
