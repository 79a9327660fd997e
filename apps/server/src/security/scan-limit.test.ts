import { ErrorCode } from "@carecampus/contract";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createFacility,
  createTestApp,
  createUser,
  login,
  TEST_SECRET,
  type TestContext,
} from "../../test/helpers";

/*
 * Issue 27: 404s and refused tokens under /api are counted per IP like failed logins; past
 * API_IP_MAX_ERRORS within LOGIN_LOCK_MINUTES the IP's API requests answer 429 with Retry-After.
 */

const MAX = 5;
let ctx: TestContext;
let token: string;
let userLogin: string;

beforeAll(async () => {
  ctx = await createTestApp({ env: { API_IP_MAX_ERRORS: String(MAX), LOGIN_LOCK_MINUTES: "15" } });
  const facility = await createFacility(ctx);
  const user = await createUser(ctx, ["employee"], facility.id);
  userLogin = user.login;
  token = await login(ctx, userLogin);
});
afterAll(() => ctx.close());

const get = (url: string, ip: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url, remoteAddress: ip, headers });

describe("API errors per IP (API_IP_MAX_ERRORS)", () => {
  it("answers unknown API paths normally up to the limit, then 429 with Retry-After for every API request of that IP", async () => {
    const ip = "10.27.0.1";
    const statuses = [];
    for (let i = 0; i < MAX; i++) statuses.push((await get(`/api/no-such-route-${i}`, ip)).statusCode);
    expect(statuses).toEqual(Array(MAX).fill(404));
    const refused = await get("/api/no-such-route-x", ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error_code: ErrorCode.rateLimited, status_code: 429 });
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Not only the misses: the IP's other API calls wait too (else a scan could go on telling
    // hits from misses), while another IP is served as before.
    expect((await get("/api/notifications", ip, bearer(token))).statusCode).toBe(429);
    expect((await get("/api/notifications", "10.27.0.2", bearer(token))).statusCode).toBe(200);
    expect((await get("/api/no-such-route", "10.27.0.2")).statusCode).toBe(404);
    // The health check tells nothing and a monitor may share the address: it answers still.
    expect((await get("/api/health", ip)).statusCode).toBe(200);
  });

  it("counts and refuses a path with percent-escapes as the router reads it", async () => {
    const ip = "10.27.0.9";
    // `/%61pi/…` is `/api/…` to the router: a real route answers, so it must count as one.
    expect((await get("/%61pi/notifications", ip, bearer(token))).statusCode).toBe(200);
    const statuses = [];
    for (let i = 0; i < MAX; i++) statuses.push((await get(`/%61pi/no-such-route-${i}`, ip)).statusCode);
    expect(statuses).toEqual(Array(MAX).fill(404));
    expect((await get("/%61pi/notifications", ip, bearer(token))).statusCode).toBe(429);
    expect((await get("/api/notifications", ip, bearer(token))).statusCode).toBe(429);
  });

  it("counts forged and expired tokens; the window ends and the IP is served again", async () => {
    const ip = "10.27.1.1";
    const forged = await new SignJWT({ sub: "1" })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("f".repeat(48)));
    const expired = await new SignJWT({ sub: "1", ver: 0, lng: "de", auth_time: 1 })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(1)
      .setExpirationTime(2)
      .sign(TEST_SECRET);
    const statuses = [];
    for (let i = 0; i < MAX; i++) {
      statuses.push((await get("/api/notifications", ip, bearer(i % 2 === 0 ? forged : expired))).statusCode);
    }
    expect(statuses).toEqual(Array(MAX).fill(401));
    expect((await get("/api/notifications", ip, bearer(forged))).statusCode).toBe(429);
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 15 * 60_000 + 1_000);
    // (The window outlived the session's token: a new login.)
    token = await login(ctx, userLogin);
    expect((await get("/api/notifications", ip, bearer(token))).statusCode).toBe(200);
    expect((await get("/api/notifications", ip, bearer(forged))).statusCode).toBe(401);
  });

  it("does not count good requests, a missing token, wrong passwords or the web app's paths", async () => {
    const ip = "10.27.2.1";
    for (let i = 0; i < MAX * 3; i++) {
      expect((await get("/api/notifications", ip, bearer(token))).statusCode).toBe(200);
      expect((await get("/api/notifications", ip)).statusCode).toBe(401);
      expect((await get(`/assets/missing-${i}.js`, ip)).statusCode).toBe(404);
    }
    for (let i = 0; i < MAX; i++) {
      const res = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        remoteAddress: ip,
        payload: { login: `nobody-${i}`, password: "wrong" },
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await get("/api/notifications", ip, bearer(token))).statusCode).toBe(200);
    expect((await get("/api/no-such-route", ip)).statusCode).toBe(404);
  });

  it("counts per client IP behind TRUST_PROXY, in the database every server shares", async () => {
    const proxied = await createTestApp({ env: { API_IP_MAX_ERRORS: "2", TRUST_PROXY: "1" } });
    try {
      const probe = (client: string) =>
        proxied.app.inject({
          method: "GET",
          url: "/api/nothing-here",
          remoteAddress: "192.168.0.10",
          headers: { "x-forwarded-for": client },
        });
      expect([(await probe("203.0.113.5")).statusCode, (await probe("203.0.113.5")).statusCode]).toEqual([404, 404]);
      expect((await probe("203.0.113.5")).statusCode).toBe(429);
      // The proxy's other clients are not held up.
      expect((await probe("203.0.113.6")).statusCode).toBe(404);
      const { rows } = await proxied.deps.database.db.execute<{ key: string; hits: number }>(
        "select key, hits from rate_limits where key like 'errors:%' order by key" as never,
      );
      expect(rows).toEqual([
        { key: "errors:ip:203.0.113.5", hits: 2 },
        { key: "errors:ip:203.0.113.6", hits: 1 },
      ]);
    } finally {
      await proxied.close();
    }
  });
});
