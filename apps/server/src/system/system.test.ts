import net from "node:net";
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

  it("refuses an id written any other way than its digits: it never acts on the object it would convert to", async () => {
    // superchris may read user 1; each of these would read as 1 through a number conversion.
    for (const alias of ["0x1", "1e0", "%2B1", "01", "%201", "1.0"]) {
      const res = await ctx.app.inject({
        method: "GET",
        url: `/api/auth/users/${alias}`,
        headers: bearer(cast.tokens.superchris),
      });
      expect(res.statusCode, alias).toBe(400);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });
    }
    const wiki = await ctx.app.inject({
      method: "POST",
      url: "/api/wiki/topics",
      headers: bearer(cast.tokens.superchris),
      payload: { key: "bigfacility", title: "x", facility: 2 ** 31 },
    });
    expect(wiki.statusCode).toBe(400);
    expect(wiki.json()).toMatchObject({
      error_code: ErrorCode.validation,
      message: expect.stringMatching(/^facility/),
    });
  });

  it("answers a path the router cannot read with 400, the error body and the security headers", async () => {
    for (const url of [
      `/api/auth/admin/users/${"9".repeat(201)}`,
      "/api/auth/admin/users/%E0%A4%A",
      "/api/wiki/page/%ZZ/x",
    ]) {
      const res = await ctx.app.inject({ method: "GET", url, headers: bearer(cast.tokens.superchris) });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });
      expect(res.body).not.toMatch(/FST_|%E0|9{50}/);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(String(res.headers["content-security-policy"])).toContain("default-src 'none'");
    }
  });

  it("answers a request the HTTP parser refuses with the error body, then closes the connection", async () => {
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = ctx.app.server.address() as net.AddressInfo;
    /** What the server writes back to these bytes before it closes the connection. */
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
        let answer = "";
        socket.setEncoding("utf8");
        socket.on("data", (chunk) => {
          answer += chunk;
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(answer));
      });
    const cases: [string, number][] = [
      ["GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400],
      ["GET /api/health HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\x01b\r\n\r\n", 400],
      ["NONSENSE\r\n\r\n", 400],
      [`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
    ];
    for (const [request, status] of cases) {
      const answer = await raw(request);
      const [head = "", body = ""] = answer.split("\r\n\r\n");
      expect(head.split("\r\n")[0], request.slice(0, 40)).toBe(
        `HTTP/1.1 ${status} ${status === 400 ? "Bad Request" : "Request Header Fields Too Large"}`,
      );
      expect(JSON.parse(body)).toMatchObject({ error_code: ErrorCode.validation, status_code: status });
      expect(head.toLowerCase()).toContain("x-content-type-options: nosniff");
    }
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
