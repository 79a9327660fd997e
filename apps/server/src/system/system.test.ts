import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ErrorCode } from "@carecampus/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

describe("system", () => {
  it("GET /api/health answers ok when the database answers", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
    // Every answer says how long the server took (Server-Timing, read by npm run bench).
    expect(res.headers["server-timing"]).toMatch(/^app;dur=\d+(\.\d)?$/);
  });

  it("compresses JSON for clients that accept it, and leaves small answers alone", async () => {
    const plain = await ctx.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    for (const encoding of ["gzip", "br"] as const) {
      const res = await ctx.app.inject({
        method: "GET",
        url: "/api/docs/json",
        headers: { "accept-encoding": encoding },
      });
      expect(res.headers["content-encoding"]).toBe(encoding);
      const body = encoding === "gzip" ? gunzipSync(res.rawPayload) : brotliDecompressSync(res.rawPayload);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(JSON.parse(body.toString("utf8"))).toEqual(plain.json());
    }
    const small = await ctx.app.inject({ method: "GET", url: "/api/health", headers: { "accept-encoding": "gzip" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("GET /api/version gives the short hash and date", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/version" });
    expect(res.json()).toEqual({ short_hash: "abc1234", date: "2026-11-22T00:00:00Z", version: "0.0.0-test" });
  });

  it("serves the OpenAPI document generated from the contract", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/auth/login", "/preferences/{id}", "/health"]));
    expect(doc.components.schemas).toHaveProperty("LoginRequest");
    const ui = await ctx.app.inject({ method: "GET", url: "/api/docs" });
    expect([200, 302]).toContain(ui.statusCode);
  });
});

describe("bad input never gives a 500", () => {
  it("answers malformed JSON with 400 and the error body", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: '{"login": "x", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error_code: ErrorCode.malformedJson,
      message: "Malformed JSON body",
      status_code: 400,
    });
  });

  it("answers a too-large body with 413", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ login: "x", password: "y".repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error_code: ErrorCode.payloadTooLarge, status_code: 413 });
  });

  it("answers an unknown /api path with 404 and the error body", async () => {
    for (const url of ["/api/nope", "/api", "/api/auth/users/1/x"]) {
      const res = await ctx.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.notFound, status_code: 404 });
    }
  });

  it("answers a wrong content type with 415", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "text/xml" },
      payload: "<x/>",
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().status_code).toBe(415);
  });

  it("survives hostile values", async () => {
    const payloads = [null, [], "x", 42, { login: { $ne: 1 }, password: "x" }, { login: "\u0000", password: "\u0000" }];
    for (const p of payloads) {
      const res = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: JSON.stringify(p),
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode).toBeLessThan(500);
    }
    const id = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/users/99999999999999999999",
      headers: bearer(cast.tokens.superchris),
    });
    expect(id.statusCode).toBe(400);
  });
});

describe("headers", () => {
  it("sends the security headers and no x-powered-by", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/health" });
    expect(res.headers["x-powered-by"]).toBeUndefined();
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:/);
  });
});
