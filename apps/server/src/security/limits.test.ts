import { ErrorCode } from "@carecampus/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createFacility,
  createTestApp,
  createUser,
  login,
  PASSWORD,
  type TestContext,
} from "../../test/helpers";
import { secondServerDatabase } from "../../test/second-server";
import { buildApp } from "../app";
import { ipKey } from "./limits";

// The shipped defaults (createTestApp lifts the IP ceiling for other files): 5 failures per
// account, a 15-minute lock, 50 failures per IP, 10 forgot-password calls a minute.
const DEFAULTS = { LOGIN_RATE_LIMIT: "10", LOGIN_IP_MAX_FAILURES: "50" };

let ctx: TestContext;
const lines: string[] = [];

beforeAll(async () => {
  ctx = await createTestApp({ env: DEFAULTS, logStream: { write: (line) => lines.push(line) } });
});
afterAll(() => ctx.close());

const attempt = (loginName: string, password: string, ip = "10.0.0.1", app = ctx.app) =>
  app.inject({ method: "POST", url: "/api/auth/login", payload: { login: loginName, password }, remoteAddress: ip });
const at = (minutes: number) => {
  ctx.clock.now = new Date(Date.now() + minutes * 60_000);
};
const events = () => lines.map((l) => JSON.parse(l)).filter((l) => typeof l.event === "string");

describe("login limits", () => {
  it("lets thirty colleagues behind one NAT address log in within a minute", async () => {
    const facility = await createFacility(ctx);
    const colleagues = [];
    for (let i = 0; i < 30; i++) colleagues.push(await createUser(ctx, ["employee"], facility.id));
    const codes = [];
    for (const c of colleagues) codes.push((await attempt(c.login, PASSWORD, "192.0.2.7")).statusCode);
    expect(codes).toEqual(colleagues.map(() => 200));
  });

  it("locks an account after 5 wrong passwords for 15 minutes (429, Retry-After), then lets the right password in", async () => {
    const user = await createUser(ctx, ["employee"], null);
    try {
      // From five addresses: the account's limit holds whatever the IP.
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push((await attempt(user.login, "Wrong-1234!", `10.1.0.${i}`)).statusCode);
      expect(codes).toEqual([401, 401, 401, 401, 401]);
      // Locked: even the right password waits, and is not checked.
      const locked = await attempt(user.login, PASSWORD, "10.1.0.9");
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toMatchObject({ error_code: ErrorCode.rateLimited, status_code: 429 });
      const retryAfter = Number(locked.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      at(14);
      expect((await attempt(user.login, PASSWORD)).statusCode).toBe(429);
      at(15.1);
      expect((await attempt(user.login, PASSWORD)).statusCode).toBe(200);
      // The right password ended the streak: five more failures before the next lock.
      for (let i = 0; i < 4; i++) expect((await attempt(user.login, "Wrong-1234!")).statusCode).toBe(401);
      expect((await attempt(user.login, PASSWORD)).statusCode).toBe(200);
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("locks longer after each further failure: 15, 30, then 60 minutes", async () => {
    const user = await createUser(ctx, ["employee"], null);
    try {
      for (let i = 0; i < 5; i++) await attempt(user.login, "Wrong-1234!");
      at(15.1);
      expect((await attempt(user.login, "Wrong-1234!")).statusCode).toBe(401);
      const second = await attempt(user.login, PASSWORD);
      expect(second.statusCode).toBe(429);
      expect(Number(second.headers["retry-after"])).toBeGreaterThan(29 * 60);
      at(15.1 + 30.1);
      expect((await attempt(user.login, "Wrong-1234!")).statusCode).toBe(401);
      expect(Number((await attempt(user.login, PASSWORD)).headers["retry-after"])).toBeGreaterThan(59 * 60);
      at(15.1 + 30.1 + 60.1);
      expect((await attempt(user.login, "Wrong-1234!")).statusCode).toBe(401);
      expect(Number((await attempt(user.login, PASSWORD)).headers["retry-after"])).toBeLessThanOrEqual(60 * 60);
      at(15.1 + 30.1 + 60.1 + 60.1);
      expect((await attempt(user.login, PASSWORD)).statusCode).toBe(200);
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("locks a login that names nobody just alike, so a lock tells nothing about which logins exist", async () => {
    const user = await createUser(ctx, ["employee"], null);
    const codes = async (name: string) => {
      const out = [];
      for (let i = 0; i < 6; i++) out.push((await attempt(name, "Wrong-1234!")).statusCode);
      return out;
    };
    expect(await codes("nobody-by-this-name")).toEqual(await codes(user.login));
  });

  it("stops an IP after LOGIN_IP_MAX_FAILURES wrong passwords across logins, other IPs go on", async () => {
    const strict = await createTestApp({ env: { LOGIN_IP_MAX_FAILURES: "5" } });
    try {
      const user = await createUser(strict, ["employee"], null);
      const codes = [];
      for (let i = 0; i < 6; i++)
        codes.push((await attempt(`guess-${i}`, "Wrong-1234!", "10.7.7.7", strict.app)).statusCode);
      expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
      const refused = await attempt(user.login, PASSWORD, "10.7.7.7", strict.app);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect((await attempt(user.login, PASSWORD, "10.7.7.8", strict.app)).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it("applies the account's failure limit to the old password of a password change, and across both", async () => {
    const user = await createUser(ctx, ["employee"], null);
    const token = await login(ctx, user.login);
    const change = (password: string) =>
      ctx.app.inject({
        method: "PATCH",
        url: `/api/auth/users/${user.id}`,
        headers: bearer(token),
        payload: { property: "password", value: { password, new_password: "Neu-Pass1!" } },
        remoteAddress: "10.3.3.3",
      });
    try {
      for (let i = 0; i < 3; i++) expect((await attempt(user.login, "Wrong-1234!")).statusCode).toBe(401);
      expect((await change("Wrong-1")).statusCode).toBe(400);
      expect((await change("Wrong-2")).statusCode).toBe(400);
      // Five failures in all: the session alone guesses no further, and the login waits too.
      const refused = await change(PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect((await attempt(user.login, PASSWORD)).statusCode).toBe(429);
      at(16);
      const fresh = await login(ctx, user.login);
      const ok = await ctx.app.inject({
        method: "PATCH",
        url: `/api/auth/users/${user.id}`,
        headers: bearer(fresh),
        payload: { property: "password", value: { password: PASSWORD, new_password: "Neu-Pass1!" } },
      });
      expect(ok.statusCode).toBe(200);
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("counts renames to a login in use (400/1001) like failed logins: the sixth attempt waits", async () => {
    const user = await createUser(ctx, ["employee"], null);
    const token = await login(ctx, user.login);
    const taken = [];
    for (let i = 0; i < 6; i++) taken.push(await createUser(ctx, ["employee"], null));
    const rename = (value: string) =>
      ctx.app.inject({
        method: "PATCH",
        url: `/api/auth/users/${user.id}`,
        headers: bearer(token),
        payload: { property: "login", value: { value } },
      });
    const codes = [];
    for (const t of taken) codes.push((await rename(t.login)).statusCode);
    expect(codes).toEqual([400, 400, 400, 400, 400, 429]);
    // A free name is refused too while the lock lasts: no oracle to go on with.
    expect((await rename(`free-${user.id}`)).statusCode).toBe(429);
  });

  it("counts in the database: a second server on it refuses the account the first one locked", async () => {
    const second = await secondServerDatabase(ctx);
    const other = await buildApp({ ...ctx.deps, database: second.database });
    try {
      const user = await createUser(ctx, ["employee"], null);
      for (let i = 0; i < 3; i++) expect((await attempt(user.login, "Wrong-1234!")).statusCode).toBe(401);
      for (let i = 0; i < 2; i++)
        expect((await attempt(user.login, "Wrong-1234!", "10.0.0.1", other)).statusCode).toBe(401);
      expect((await attempt(user.login, PASSWORD, "10.0.0.1", other)).statusCode).toBe(429);
      expect((await attempt(user.login, PASSWORD)).statusCode).toBe(429);
    } finally {
      await other.close();
      await second.close();
    }
  });

  it("logs failed logins, limits reached and refused roles with login and IP, never a password or token", async () => {
    lines.length = 0;
    const user = await createUser(ctx, ["employee"], null);
    await attempt(user.login, "Secret-Guess-1!", "203.0.113.5");
    const token = await login(ctx, user.login);
    await ctx.app.inject({
      method: "GET",
      url: `/api/progress/admin/export/xlsx?token=${token}`,
      remoteAddress: "203.0.113.6",
    });
    for (let i = 0; i < 6; i++) await attempt(`ghost-${user.id}`, "Secret-Guess-2!", "203.0.113.7");
    const logged = events();
    expect(logged).toContainEqual(
      expect.objectContaining({ event: "password-failed", login: user.login, ip: "203.0.113.5", status: 401 }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({ event: "access-refused", login: user.login, ip: "203.0.113.6", status: 403 }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({ event: "rate-limited", login: `ghost-${user.id}`, ip: "203.0.113.7", status: 429 }),
    );
    const all = lines.join("\n");
    expect(all).not.toContain("Secret-Guess");
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.split(".")[2] as string);
  });
});

describe("the counter key of a client address", () => {
  it("counts an IPv6 address by its /64, and an IPv4 address written as IPv6 as itself", () => {
    expect(ipKey("203.0.113.7")).toBe("ip:203.0.113.7");
    expect(ipKey("::ffff:203.0.113.7")).toBe("ip:203.0.113.7");
    const one = ipKey("2001:db8:0:12::1");
    expect(one).toBe("ip:2001:db8:0:12::/64");
    // Other addresses of the same network, however written, share the counter.
    expect(ipKey("2001:0db8:0000:0012:ffff:1:2:3")).toBe(one);
    expect(ipKey("2001:DB8:0:12:a::")).toBe(one);
    expect(ipKey("2001:db8:0:12::1%eth0")).toBe(one);
    expect(ipKey("2001:db8:0:13::1")).not.toBe(one);
    expect(ipKey("::1")).toBe("ip:0:0:0:0::/64");
  });
});
