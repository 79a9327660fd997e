import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, onPostgres } from "../../test/helpers";
import { DEMO_PASSWORD } from "../demo/seed";

/*
 * Several servers on one PostgreSQL (ARCHITECTURE decision 18, issue 'Learning at scale'): two
 * real server processes started at the same moment against an empty database.
 */

const SERVER_DIR = path.resolve(import.meta.dirname, "../..");

interface Server {
  child: ChildProcess;
  base: string;
  output: string[];
}

function start(port: number, databaseUrl: string): Server {
  const output: string[] = [];
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      DEMO_DATA: "true",
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "cc-servers-")),
      JWT_SECRET: "",
      LOG_LEVEL: "warn",
      NOTIFICATION_JOB: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (c: Buffer) => output.push(c.toString()));
  child.stderr?.on("data", (c: Buffer) => output.push(c.toString()));
  return { child, base: `http://127.0.0.1:${port}`, output };
}

async function healthy(server: Server, ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server.child.exitCode !== null) throw new Error(`server ended:\n${server.output.join("")}`);
    try {
      if ((await fetch(`${server.base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not come up:\n${server.output.join("")}`);
}

const json = { "content-type": "application/json" };
const loginOn = (server: Server, login: string, password: string) =>
  fetch(`${server.base}/api/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ login, password }) });

describe.skipIf(!onPostgres)("two servers on one PostgreSQL database", { timeout: 120_000 }, () => {
  let a: Server;
  let b: Server;
  let admin: pg.Client;
  let dbName: string;
  let db: pg.Client;

  beforeAll(async () => {
    const base = process.env.DATABASE_URL as string;
    dbName = `cc_servers_${crypto.randomBytes(5).toString("hex")}`;
    admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const url = new URL(base);
    url.pathname = `/${dbName}`;
    const [pa, pb] = [await freePort(), await freePort()];
    // At the same moment, against a database nobody has migrated.
    a = start(pa, url.toString());
    b = start(pb, url.toString());
    await Promise.all([healthy(a), healthy(b)]);
    db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    for (const s of [a, b]) s?.child.kill("SIGTERM");
    await Promise.all(
      [a, b].map((s) => (s && s.child.exitCode === null ? new Promise((r) => s.child.once("exit", r)) : undefined)),
    );
    await db?.end();
    await admin?.query(`drop database if exists ${dbName} with (force)`);
    await admin?.end();
  }, 60_000);

  it("both come up; the migrations ran once and there is one set of demo users", async () => {
    const journal = JSON.parse(
      fs.readFileSync(path.join(SERVER_DIR, "src/db/migrations/meta/_journal.json"), "utf8"),
    ) as { entries: unknown[] };
    const migrations = await db.query("select count(*)::int as n from drizzle.__drizzle_migrations");
    expect(migrations.rows[0].n).toBe(journal.entries.length);
    const users = await db.query("select login, count(*)::int as n from users group by login having count(*) > 1");
    expect(users.rows).toEqual([]);
    const employees = await db.query("select count(*)::int as n from users where login = 'employee'");
    expect(employees.rows[0].n).toBe(1);
    const secrets = await db.query("select count(*)::int as n from app_meta where key = 'jwt_secret'");
    expect(secrets.rows[0].n).toBe(1);
  });

  it("accepts on one server the token the other issued", async () => {
    const res = await loginOn(a, "employee", DEMO_PASSWORD);
    expect(res.status).toBe(200);
    const { token, user } = (await res.json()) as { token: string; user: { id: number } };
    const me = await fetch(`${b.base}/api/auth/users/${user.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
  });

  it("counts failed logins across both servers", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await loginOn(i % 2 === 0 ? a : b, "employee2", "wrong-password");
      expect(res.status).toBe(401);
    }
    for (const s of [a, b]) {
      const res = await loginOn(s, "employee2", "wrong-password");
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  it("ends the session on the other server at once when the password changes on one", async () => {
    const res = await loginOn(b, "supervisor", DEMO_PASSWORD);
    const { token, user } = (await res.json()) as { token: string; user: { id: number } };
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${b.base}/api/auth/users/${user.id}`, { headers: auth })).status).toBe(200);
    const change = await fetch(`${a.base}/api/auth/users/${user.id}`, {
      method: "PATCH",
      headers: { ...auth, ...json },
      body: JSON.stringify({
        property: "password",
        value: { password: DEMO_PASSWORD, new_password: "Neu-Passwort-1234!" },
      }),
    });
    expect(change.status, await change.clone().text()).toBe(200);
    const after = await fetch(`${b.base}/api/auth/users/${user.id}`, { headers: auth });
    expect(after.status).toBe(401);
  });

  it("follows a change any other process writes (a role, a deletion) on both servers at once", async () => {
    const res = await loginOn(a, "employee", DEMO_PASSWORD);
    const { token, user } = (await res.json()) as { token: string; user: { id: number } };
    const auth = { authorization: `Bearer ${token}` };
    for (const s of [a, b]) expect((await fetch(`${s.base}/api/progress/topics`, { headers: auth })).status).toBe(200);
    // As SQL by hand or a tool would: straight into the database, neither server involved.
    await db.query("update user_roles set role = 'supervisor' where user_id = $1", [user.id]);
    for (const s of [a, b]) expect((await fetch(`${s.base}/api/progress/topics`, { headers: auth })).status).toBe(403);
    await db.query("update users set token_version = token_version + 1 where id = $1", [user.id]);
    for (const s of [a, b])
      expect((await fetch(`${s.base}/api/auth/users/${user.id}`, { headers: auth })).status).toBe(401);
  });

  it("runs the expiry job once across both: one notice for the demo certificate that expires soon", async () => {
    // Both servers ran every job once right after start, each under the job's lock.
    const until = Date.now() + 20_000;
    let rows: { n: number }[] = [];
    while (Date.now() < until) {
      rows = (
        await db.query(
          `select count(*)::int as n from notifications n join users u on u.id = n.user_id
           where u.login = 'employee2' and n.type = 'CERTIFICATE_EXPIRES'`,
        )
      ).rows;
      if ((rows[0]?.n ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // Let the later of the two catch-up runs finish as well.
    await new Promise((r) => setTimeout(r, 2_000));
    const final = await db.query(
      `select count(*)::int as n from notifications n join users u on u.id = n.user_id
       where u.login = 'employee2' and n.type = 'CERTIFICATE_EXPIRES'`,
    );
    expect(final.rows[0].n).toBe(1);
  });
});
