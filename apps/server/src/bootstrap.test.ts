import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { copyPgliteTemplate, createTestApp, createUser, login, onPostgres, type TestContext } from "../test/helpers";
import { seedFirstStart } from "./bootstrap";
import { currentContentVersion } from "./content/service";
import { type Db, openDatabase } from "./db/client";
import { DEMO_USERS, issuePendingAdminPassword } from "./demo/seed";
import { findUserByLogin, setGeneratedPassword } from "./users/service";

const contexts: TestContext[] = [];
const fresh = async () => {
  const ctx = await createTestApp();
  contexts.push(ctx);
  return ctx;
};
afterAll(async () => {
  for (const ctx of contexts) await ctx.close();
});

const DEMO = { demoData: true, adminPassword: undefined, timeZone: "Europe/Berlin" };
/** The seven demo users and the eight demo colleagues. */
const DEMO_USER_COUNT = 15;

async function counts(db: Db) {
  const { rows } = await db.execute<{ users: number; facilities: number; certificates: number }>(
    sql`select (select count(*)::int from users) as users, (select count(*)::int from facilities) as facilities,
        (select count(*)::int from certificates) as certificates`,
  );
  return { ...rows[0], content: await currentContentVersion(db) };
}

// These seed the whole demo: seconds on a quiet machine, several times that while other work
// shares its two cores. The seeding is most of that time: both ways a first start can stop
// half-way, a kill -9 of a real process and a failure in this one, are taken one after the other
// on one database, and the start after them seeds it once for both.
describe("first-start seeding", { timeout: 120_000 }, () => {
  it("is all or nothing: a kill -9 or a failure half-way leaves nothing, and the next start seeds everything once", async () => {
    let ctx: TestContext | undefined;
    let target: string;
    let dir: string | undefined;
    if (onPostgres) {
      ctx = await fresh();
      const [row] = (await ctx.deps.database.db.execute<{ name: string }>(sql`select current_database() as name`)).rows;
      const url = new URL(process.env.DATABASE_URL ?? "");
      url.pathname = `/${row?.name}`;
      target = url.toString();
    } else {
      // A data directory as a first start has it once the migrations are done (a copy of the
      // run's template, test/global-setup.ts, which migrated it from nothing): the seeding is
      // the subject here.
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-seed-kill-"));
      copyPgliteTemplate(dir);
      target = dir;
    }
    const child = spawn(process.execPath, ["--import", "tsx", "test/seed-child.ts", target], {
      cwd: path.resolve(import.meta.dirname, ".."),
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("half-way")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the seeding child ended early (${code})`)));
    });
    child.kill("SIGKILL");
    await exited;
    const database = ctx ? ctx.deps.database : await openDatabase({ pgliteDir: dir, fsync: true });
    try {
      const db = database.db;
      const nothing = { users: 0, facilities: 0, certificates: 0, content: null };
      expect(await counts(db)).toEqual(nothing);
      const failing = seedFirstStart(db, DEMO, new Date(), async (step) => {
        if (step === "content") throw new Error("failed half-way");
      });
      await expect(failing).rejects.toThrow("failed half-way");
      expect(await counts(db)).toEqual(nothing);
      const seeded = await seedFirstStart(db, DEMO, new Date());
      expect(seeded.created).toBe("demo");
      const after = await counts(db);
      expect(after.users).toBe(DEMO_USER_COUNT);
      expect(after.facilities).toBe(2);
      expect(after.content).not.toBeNull();
      const logins = await db.execute<{ login: string }>(sql`select login from users`);
      const names = logins.rows.map((r) => r.login);
      for (const u of DEMO_USERS) expect(names).toContain(u.login);
      expect((await seedFirstStart(db, DEMO, new Date())).created).toBe("none");
      expect(await counts(db)).toEqual(after);
    } finally {
      if (!ctx) await database.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the first superuser without demo data", { timeout: 120_000 }, () => {
  it("gets a generated password only once the server listens, printed once; a failed start leaves it pending", async () => {
    const ctx = await fresh();
    const db = ctx.deps.database.db;
    const seeded = await seedFirstStart(db, { ...DEMO, demoData: false }, new Date());
    expect(seeded.created).toBe("admin");
    // Nothing to print yet: a start that fails now (port in use) has shown no password.
    expect(seeded.lines.join("\n")).not.toMatch(/password/i);
    const lines = await issuePendingAdminPassword(db);
    const password = /password: (\S+)$/m.exec(lines.join("\n"))?.[1];
    expect(password).toBeDefined();
    expect(lines.join("\n")).toContain("npm run admin:reset-password -- superchris");
    await login(ctx, "superchris", password);
    expect(await issuePendingAdminPassword(db)).toEqual([]);
  });

  it("admin:reset-password gives a new password, ends the sessions and lifts a lock", async () => {
    const ctx = await fresh();
    const user = await createUser(ctx, ["superchris"], null);
    const token = await login(ctx, user.login);
    for (let i = 0; i < 5; i++) {
      await ctx.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: user.login, password: "x" } });
    }
    const found = await findUserByLogin(ctx.deps.database.db, user.login);
    const issued = await setGeneratedPassword(ctx.deps.database.db, found?.id ?? 0);
    expect(issued?.login).toBe(user.login);
    await login(ctx, user.login, issued?.password);
    const old = await ctx.app.inject({
      method: "GET",
      url: `/api/auth/users/${user.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(old.statusCode).toBe(401);
    expect(await setGeneratedPassword(ctx.deps.database.db, 2_000_000_000)).toBeUndefined();
  });
});
