import { ErrorCode } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createCast,
  createFacility,
  createTestApp,
  createUser,
  login,
  PASSWORD,
  statementsOf,
  TEST_SECRET,
  type TestContext,
} from "../../test/helpers";
import { mailOutbox, notifications, users } from "../db/schema";
import { passwordVerifications } from "../security/passwords";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

async function loadUserVersion(id: number): Promise<number> {
  const [row] = await ctx.deps.database.db.select({ v: users.tokenVersion }).from(users).where(eq(users.id, id));
  return row?.v ?? 0;
}

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "POST", url, payload: payload as object, headers });

function decode(token: string) {
  const [, payload] = token.split(".");
  return JSON.parse(Buffer.from(payload as string, "base64url").toString());
}

describe("POST /api/auth/login", () => {
  it("returns a token with the claims of spec §3 and the user", async () => {
    const { employee } = cast.users;
    const res = await post("/api/auth/login", { login: employee.login, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({
      id: employee.id,
      login: employee.login,
      roles: ["employee"],
      show_help_redirect: true,
    });
    expect(body.user).not.toHaveProperty("password");
    expect(body.user).not.toHaveProperty("passwordHash");
    const claims = decode(body.token);
    expect(claims).toMatchObject({
      sub: String(employee.id),
      login: employee.login,
      roles: ["employee"],
      facility: cast.facilityA.id,
      lng: "de",
      name: "Test",
    });
    expect(claims.exp - claims.iat).toBe(300);
  });

  it("matches the login case-insensitively", async () => {
    const res = await post("/api/auth/login", { login: cast.users.employee.login.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
  });

  it("answers an unknown login and a wrong password the same way (1000)", async () => {
    const wrong = await post("/api/auth/login", { login: cast.users.employee.login, password: "Wrong-1234!" });
    const unknown = await post("/api/auth/login", { login: "nobody-here", password: "Wrong-1234!" });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ error_code: ErrorCode.invalidCredentials, status_code: 401 });
  });

  it("runs one password verification for an unknown login, as for a wrong password", async () => {
    // The same work, so the answer's time tells nothing; passwords.test.ts shows the dummy hash
    // verified for an unknown login costs what a stored one does.
    const verifications = async (loginName: string) => {
      const before = passwordVerifications();
      const res = await post("/api/auth/login", { login: loginName, password: "Wrong-1234!" });
      expect(res.statusCode).toBe(401);
      return passwordVerifications() - before;
    };
    expect(await verifications(cast.users.supervisor.login)).toBe(1);
    expect(await verifications("ghost-login")).toBe(1);
  });

  it("refuses bad bodies with 400 and the error body", async () => {
    for (const payload of [{}, { login: "x" }, { login: "", password: "x" }, { login: "x", password: "y", extra: 1 }]) {
      const res = await post("/api/auth/login", payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });
    }
  });
});

describe("tokens", () => {
  const me = () =>
    ctx.app.inject({
      method: "GET",
      url: `/api/auth/users/${cast.users.employee.id}`,
      headers: bearer(cast.tokens.employee),
    });

  it("accepts a valid token", async () => {
    expect((await me()).statusCode).toBe(200);
  });

  it.each([
    ["no token", undefined],
    ["garbage", "Bearer not-a-jwt"],
    ["empty bearer", "Bearer "],
  ])("refuses %s with 401/1010", async (_name, authorization) => {
    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/auth/users/${cast.users.employee.id}`,
      headers: authorization ? { authorization } : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error_code: ErrorCode.sessionExpired, status_code: 401 });
  });

  it("refuses a tampered token", async () => {
    const [h, p, s] = cast.tokens.employee.split(".");
    const claims = JSON.parse(Buffer.from(p as string, "base64url").toString());
    claims.roles = ["superchris"];
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${s}`;
    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/auth/users/${cast.users.employee.id}`,
      headers: bearer(forged),
    });
    expect(res.statusCode).toBe(401);
  });

  const signed = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: "HS256", typ: "JWT" }) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      name: "x",
      surname: "x",
      roles: ["superchris"],
      login: "x",
      facility: null,
      lng: "de",
      ver: 0,
      auth_time: now,
      ...claims,
    })
      .setProtectedHeader(header as { alg: string })
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(TEST_SECRET);
  };

  const ME = "the superuser's id";
  it.each([
    ["a non-numeric sub", { sub: "abc" }, undefined],
    ["a sub beyond any id", { sub: "99999999999" }, undefined],
    ["a sub with a fraction", { sub: "1.5" }, undefined],
    ["no sub", { sub: undefined }, undefined],
    ["no auth_time", { sub: ME, auth_time: undefined }, undefined],
    ["the wrong typ", { sub: ME }, { alg: "HS256", typ: "at+jwt" }],
  ])("refuses a token signed with our secret but with %s: 401, never 500", async (_name, claims, header) => {
    const sub = claims.sub === ME ? String(cast.users.superchris.id) : claims.sub;
    const token = await signed({ ...claims, sub }, header);
    for (const [method, url] of [
      ["GET", `/api/auth/users/${cast.users.superchris.id}`],
      ["POST", "/api/auth/refresh"],
    ] as const) {
      const res = await ctx.app.inject({ method, url, headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(res.json().error_code).toBe(ErrorCode.sessionExpired);
    }
  });

  it("accepts such a token when every claim is right (the cases above differ in one claim only)", async () => {
    const user = await loadUserVersion(cast.users.superchris.id);
    const token = await signed({ sub: String(cast.users.superchris.id), ver: user });
    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/auth/users/${cast.users.superchris.id}`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
  });

  it("refuses alg:none", async () => {
    const [, p] = cast.tokens.employee.split(".");
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/auth/users/${cast.users.employee.id}`,
      headers: bearer(`${header}.${p}.`),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error_code).toBe(ErrorCode.sessionExpired);
  });

  it("refuses a token signed with another secret", async () => {
    const other = await new SignJWT({
      auth_time: Math.floor(Date.now() / 1000),
      roles: ["superchris"],
      login: "x",
      name: "x",
      surname: "x",
      facility: null,
      lng: "de",
      ver: 0,
    })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(cast.users.superchris.id))
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("x".repeat(48)));
    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/auth/users/${cast.users.superchris.id}`,
      headers: bearer(other),
    });
    expect(res.statusCode).toBe(401);
  });

  it("refuses an expired token, also one that was accepted before (and is kept as checked)", async () => {
    const token = await login(ctx, cast.users.supervisor.login);
    const read = () =>
      ctx.app.inject({ method: "GET", url: `/api/auth/users/${cast.users.supervisor.id}`, headers: bearer(token) });
    expect((await read()).statusCode).toBe(200);
    ctx.clock.now = new Date(Date.now() + 301_000);
    try {
      const res = await read();
      expect(res.statusCode).toBe(401);
      expect(res.json().error_code).toBe(ErrorCode.sessionExpired);
    } finally {
      ctx.clock.now = new Date();
    }
  });
});

describe("POST /api/auth/refresh", () => {
  it("ends a session SESSION_MAX_HOURS after its login, however often it was refreshed", async () => {
    const long = await createTestApp({ env: { TOKEN_LIFETIME_SECONDS: "86400", SESSION_MAX_HOURS: "12" } });
    try {
      const user = await createUser(long, ["employee"], null);
      const first = await login(long, user.login);
      const refreshAt = async (hours: number, token: string) => {
        long.clock.now = new Date(Date.now() + hours * 3_600_000);
        return long.app.inject({ method: "POST", url: "/api/auth/refresh", headers: bearer(token) });
      };
      const at6 = await refreshAt(6, first);
      expect(at6.statusCode).toBe(200);
      const second = at6.json().token as string;
      // The login time travels on in the refreshed token.
      expect(decode(second).auth_time).toBe(decode(first).auth_time);
      const at11 = await refreshAt(11.9, second);
      expect(at11.statusCode).toBe(200);
      const third = at11.json().token as string;
      // No token of the session outlives it.
      expect(decode(third).exp).toBeLessThanOrEqual(decode(first).auth_time + 12 * 3600);
      const at12 = await refreshAt(12.01, third);
      expect(at12.statusCode).toBe(401);
      expect(at12.json().error_code).toBe(ErrorCode.sessionExpired);
      // A new login starts a new session.
      expect(decode(await login(long, user.login)).auth_time).toBeGreaterThan(decode(first).auth_time);
    } finally {
      await long.close();
    }
  });

  it("returns a fresh token, with ?lang setting the language claim", async () => {
    const res = await post("/api/auth/refresh?lang=fr", undefined, bearer(cast.tokens.employee));
    expect(res.statusCode).toBe(200);
    const claims = decode(res.json().token);
    expect(claims.lng).toBe("fr");
    expect(claims.sub).toBe(String(cast.users.employee.id));
  });

  it("refuses an unknown language and a missing token", async () => {
    expect((await post("/api/auth/refresh?lang=xx", undefined, bearer(cast.tokens.employee))).statusCode).toBe(400);
    expect((await post("/api/auth/refresh")).statusCode).toBe(401);
  });

  it("does not accept the token in the query string (decision 9)", async () => {
    const res = await post(`/api/auth/refresh?token=${cast.tokens.employee}`);
    expect(res.statusCode).toBe(401);
  });
});

describe("POST /api/auth/forgotpassword", () => {
  /** The answer as a client sees it, without what differs per request anyway. */
  const answer = (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    const { date: _date, "server-timing": _timing, ...headers } = res.headers;
    return { status: res.statusCode, headers, body: res.body };
  };
  const forUser = (rows: (typeof notifications.$inferSelect)[], userId: number) =>
    rows.filter((n) => n.userId === userId && n.type === "PASSWORD_RESET_REQUEST");

  it("informs the administrators of the user's facility, after answering", async () => {
    const res = await post("/api/auth/forgotpassword", { user_login: cast.users.employee.login });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ informed: true });
    await ctx.app.background.idle();
    const rows = await ctx.deps.database.db.select().from(notifications);
    expect(forUser(rows, cast.users.administrator.id)).toHaveLength(1);
    expect(rows.some((n) => n.userId === cast.users.administratorB.id)).toBe(false);
  });

  it("answers alike for an existing, an unknown, a sole administrator's and the sole superuser's login (never 1016)", async () => {
    const lonely = await createTestApp();
    try {
      const facility = await createFacility(lonely);
      const superuser = await createUser(lonely, ["superchris"], null);
      const soleAdmin = await createUser(lonely, ["administrator"], facility.id);
      const employee = await createUser(lonely, ["employee"], facility.id);
      const noAdmin = await createFacility(lonely);
      const orphan = await createUser(lonely, ["employee"], noAdmin.id);
      const ask = (login: string) =>
        lonely.app.inject({ method: "POST", url: "/api/auth/forgotpassword", payload: { user_login: login } });
      const answers = [];
      for (const login of [employee.login, "nobody-at-all", soleAdmin.login, superuser.login, orphan.login]) {
        answers.push(answer(await ask(login)));
      }
      for (const a of answers) expect(a).toEqual(answers[0]);
      expect(answers[0]?.status).toBe(200);
      await lonely.app.background.idle();
      const rows = await lonely.deps.database.db.select().from(notifications);
      // The sole administrator's request, and that of a facility without one, reach the superusers.
      expect(forUser(rows, superuser.id)).toHaveLength(2);
      expect(forUser(rows, soleAdmin.id)).toHaveLength(1);
    } finally {
      await lonely.close();
    }
  });

  it("logs the request nobody can answer (the sole superuser's) with 1016 for the operator", async () => {
    const lines: string[] = [];
    const lonely = await createTestApp({ logStream: { write: (line) => lines.push(line) } });
    try {
      const superuser = await createUser(lonely, ["superchris"], null);
      const res = await lonely.app.inject({
        method: "POST",
        url: "/api/auth/forgotpassword",
        payload: { user_login: superuser.login },
      });
      expect(res.statusCode).toBe(200);
      await lonely.app.background.idle();
      const events = lines.map((l) => JSON.parse(l)).filter((l) => l.event === "password-reset-unanswered");
      expect(events).toEqual([
        expect.objectContaining({ login: superuser.login, error_code: ErrorCode.adminDoesNotExist }),
      ]);
    } finally {
      await lonely.close();
    }
  });

  it("runs the same statements for an unknown login as for a known one, and leaves no trace of it (issue 27)", async () => {
    const counted = await createTestApp({ countQueries: true });
    try {
      const facility = await createFacility(counted);
      await createUser(counted, ["superchris"], null, { email: "super@example.org" });
      await createUser(counted, ["administrator"], facility.id, { email: "admin@example.org" });
      const employee = await createUser(counted, ["employee"], facility.id);
      /** The statements one request runs, by kind and table (their values and row counts differ). */
      const statements = (login: string) =>
        statementsOf(async () => {
          const res = await counted.app.inject({
            method: "POST",
            url: "/api/auth/forgotpassword",
            payload: { user_login: login },
          });
          expect(res.statusCode).toBe(200);
          await counted.app.background.idle();
        });
      const rows = async () => ({
        notices: (await counted.deps.database.db.select().from(notifications)).length,
        mails: (await counted.deps.database.db.select().from(mailOutbox)).length,
      });
      const before = await rows();
      const unknown = await statements("nobody-by-this-name");
      expect(await rows()).toEqual(before);
      const known = await statements(employee.login);
      expect(await rows()).toEqual({ notices: before.notices + 1, mails: before.mails + 1 });
      expect(known.some((s) => s.startsWith("insert into notifications"))).toBe(true);
      expect(unknown).toEqual(known);
    } finally {
      await counted.close();
    }
  });

  it("refuses an empty login", async () => {
    expect((await post("/api/auth/forgotpassword", { user_login: "  " })).statusCode).toBe(400);
  });

  it("limits requests per IP and per login (LOGIN_RATE_LIMIT a minute), with Retry-After", async () => {
    const limited = await createTestApp({ env: { LOGIN_RATE_LIMIT: "3" } });
    try {
      const ask = (login: string, ip: string) =>
        limited.app.inject({
          method: "POST",
          url: "/api/auth/forgotpassword",
          payload: { user_login: login },
          remoteAddress: ip,
        });
      const perIp = [];
      for (let i = 0; i < 4; i++) perIp.push((await ask(`someone-${i}`, "10.1.1.1")).statusCode);
      expect(perIp).toEqual([200, 200, 200, 429]);
      const perLogin = [];
      for (let i = 0; i < 4; i++) perLogin.push(await ask("the-same-one", `10.2.2.${i + 1}`));
      expect(perLogin.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
      const refused = perLogin[3];
      expect(refused?.json()).toMatchObject({ error_code: ErrorCode.rateLimited, status_code: 429 });
      expect(Number(refused?.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(refused?.headers["retry-after"])).toBeLessThanOrEqual(60);
    } finally {
      await limited.close();
    }
  });
});

describe("a login with invisible or formatting characters (issue 27)", () => {
  it("names nobody: invalid credentials after the same work, also for an account stored with one before the rule", async () => {
    const legacy = await createUser(ctx, ["employee"], cast.facilityA.id, {
      login: `${cast.users.employee.login}\u200B`,
    });
    for (const loginName of [legacy.login, `${cast.users.supervisor.login}\u2060`]) {
      const before = passwordVerifications();
      const res = await post("/api/auth/login", { login: loginName, password: PASSWORD });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.invalidCredentials, status_code: 401 });
      expect(passwordVerifications() - before).toBe(1);
    }
    // The look-alike is not the employee either way.
    expect((await post("/api/auth/login", { login: cast.users.employee.login, password: PASSWORD })).statusCode).toBe(
      200,
    );
  });
});
