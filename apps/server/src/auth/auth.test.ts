import { ErrorCode } from "@carecampus/contract";
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
  type TestContext,
} from "../../test/helpers";
import { notifications } from "../db/schema";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

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

  it("takes about as long for an unknown login as for a wrong password", async () => {
    const time = async (loginName: string) => {
      const start = performance.now();
      await post("/api/auth/login", { login: loginName, password: "Wrong-1234!" });
      return performance.now() - start;
    };
    await time("warm-up");
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(cast.users.supervisor.login));
      unknown.push(await time(`ghost-${i}`));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1] as number;
    // Both paths run one argon2 verification; without the dummy hash the unknown path is ~100× faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.3);
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

  it("refuses an expired token", async () => {
    const token = await login(ctx, cast.users.supervisor.login);
    ctx.clock.now = new Date(Date.now() + 301_000);
    try {
      const res = await ctx.app.inject({
        method: "GET",
        url: `/api/auth/users/${cast.users.supervisor.id}`,
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error_code).toBe(ErrorCode.sessionExpired);
    } finally {
      ctx.clock.now = new Date();
    }
  });
});

describe("POST /api/auth/refresh", () => {
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
  it("informs the administrators of the user's facility", async () => {
    const res = await post("/api/auth/forgotpassword", { user_login: cast.users.employee.login });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ informed: true });
    const rows = await ctx.deps.database.db.select().from(notifications);
    const forAdmin = rows.filter((n) => n.userId === cast.users.administrator.id);
    expect(forAdmin).toHaveLength(1);
    expect(forAdmin[0]?.type).toBe("PASSWORD_RESET_REQUEST");
    expect(rows.some((n) => n.userId === cast.users.administratorB.id)).toBe(false);
  });

  it("gives an unknown login the same answer", async () => {
    const res = await post("/api/auth/forgotpassword", { user_login: "does-not-exist" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ informed: true });
  });

  it("answers 1016 when the facility has no administrator", async () => {
    const f = await createFacility(ctx);
    const u = await createUser(ctx, ["employee"], f.id);
    const res = await post("/api/auth/forgotpassword", { user_login: u.login });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error_code: ErrorCode.adminDoesNotExist });
  });

  it("refuses an empty login", async () => {
    expect((await post("/api/auth/forgotpassword", { user_login: "  " })).statusCode).toBe(400);
  });
});

describe("rate limits", () => {
  it("limits login attempts per login and answers 429 with the error body", async () => {
    const limited = await createTestApp({ env: { LOGIN_RATE_LIMIT: "3" } });
    try {
      const f = await createUser(limited, ["employee"], null);
      const attempt = (ip: string) =>
        limited.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { login: f.login, password: "x" },
          remoteAddress: ip,
        });
      // Different IPs, same login: the per-login limit catches it.
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await attempt(`10.0.0.${i + 1}`)).statusCode);
      expect(codes).toEqual([401, 401, 401, 429]);
      const res = await attempt("10.0.0.9");
      expect(res.json()).toMatchObject({ error_code: ErrorCode.rateLimited, status_code: 429 });
    } finally {
      await limited.close();
    }
  });

  it("limits attempts per IP across logins", async () => {
    const limited = await createTestApp({ env: { LOGIN_RATE_LIMIT: "3" } });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.app.inject({
          method: "POST",
          url: "/api/auth/forgotpassword",
          payload: { user_login: `someone-${i}` },
          remoteAddress: "10.1.1.1",
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
