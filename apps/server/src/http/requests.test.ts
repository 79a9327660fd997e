import { ErrorCode } from "@carecampus/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, createUser, login, PASSWORD, type TestContext } from "../../test/helpers";
import { ConfigError, loadConfig } from "../config";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

const json = (method: "POST" | "PATCH", url: string, token: string | undefined, payload: string | Buffer) =>
  ctx.app.inject({
    method,
    url,
    headers: { "content-type": "application/json", ...(token ? bearer(token) : {}) },
    payload,
  });

describe("login names: one normalisation for storing, comparing and searching", () => {
  it("logs in 'İlker' and 'Straße' as typed, in any case of their other letters, and keeps them apart from look-alikes", async () => {
    const ilker = await createUser(ctx, ["employee"], cast.facilityA.id, { login: "İlker" });
    const strasse = await createUser(ctx, ["employee"], cast.facilityA.id, { login: "Straße" });
    for (const typed of ["İlker", "İLKER", "i̇lker"]) await login(ctx, typed);
    for (const typed of ["Straße", "STRAẞE", "straße", "Ｓｔｒａßｅ"]) await login(ctx, typed);
    // Decided: dotless/dotted i and ß/ss are different letters, so these are other logins.
    for (const other of ["ilker", "ILKER", "Strasse", "STRASSE"]) {
      const res = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { login: other, password: PASSWORD },
      });
      expect(res.statusCode, other).toBe(401);
    }
    const search = async (query: string) =>
      (
        await ctx.app.inject({
          method: "GET",
          url: `/api/auth/admin/users?query=${encodeURIComponent(query)}`,
          headers: bearer(cast.tokens.administrator),
        })
      )
        .json()
        .users.map((u: { id: number }) => u.id);
    expect(await search("İLK")).toContain(ilker.id);
    expect(await search("STRAẞ")).toContain(strasse.id);
    // A rename to another spelling of a login in use is refused.
    const taken = await ctx.app.inject({
      method: "PATCH",
      url: `/api/auth/users/${cast.users.employee.id}`,
      headers: bearer(cast.tokens.employee),
      payload: { property: "login", value: { value: "STRAẞE" } },
    });
    expect(taken.json()).toMatchObject({ error_code: ErrorCode.loginInUse, status_code: 400 });
  });

  it("refuses lone surrogates and bytes that are not UTF-8 with 400 instead of storing U+FFFD", async () => {
    const url = `/api/auth/users/${cast.users.supervisor.id}`;
    for (const body of [
      '{"property":"login","value":{"value":"a\\ud800b"}}',
      '{"property":"login","value":{"value":"a\\udc00"}}',
      '{"property":"login","value":{"\\ud83d":"x"}}',
    ]) {
      const res = await json("PATCH", url, cast.tokens.supervisor, body);
      expect(res.statusCode, body).toBe(400);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });
    }
    const latin1 = Buffer.concat([
      Buffer.from('{"property":"login","value":{"value":"M'),
      Buffer.from([0xfc]),
      Buffer.from('ller"}}'),
    ]);
    expect((await json("PATCH", url, cast.tokens.supervisor, latin1)).statusCode).toBe(400);
    // A pair written as escapes is one character and welcome.
    const ok = await json(
      "PATCH",
      url,
      cast.tokens.supervisor,
      '{"property":"login","value":{"value":"emoji\\ud83d\\ude00"}}',
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().login).toBe("emoji😀");
  });
});

describe("requests", () => {
  it("refuses the CSV import by role before reading its body", async () => {
    // Malformed on purpose: read and parsed, it would answer 400.
    const big = `[${"x".repeat(3 * 1024 * 1024)}`;
    const res = await json("POST", "/api/auth/admin/users", cast.tokens.employee, big);
    expect(res.statusCode).toBe(403);
    expect(res.json().status_code).toBe(403);
    const supervisor = await json("POST", "/api/auth/admin/users", cast.tokens.supervisor, big);
    expect(supervisor.statusCode).toBe(403);
  });

  it("gives the import's size only to a superuser: an administrator's large body is 413 unread", async () => {
    const rows = Array.from({ length: 600 }, (_, i) => ({
      surname: "Groß",
      name: "Anna",
      login: `size.${i}`,
      facility: cast.facilityA.name,
      activities: [],
      qualifications: [],
      password: "Import-Pass1!",
    }));
    const body = JSON.stringify(rows);
    expect(body.length).toBeGreaterThan(64 * 1024);
    const admin = await json("POST", "/api/auth/admin/users?dryRun=true", cast.tokens.administrator, body);
    expect(admin.statusCode).toBe(413);
    expect(admin.json()).toMatchObject({ error_code: ErrorCode.payloadTooLarge, status_code: 413 });
    const superuser = await json("POST", "/api/auth/admin/users?dryRun=true", cast.tokens.superchris, body);
    expect(superuser.statusCode, superuser.body.slice(0, 200)).toBe(200);
  });

  it("limits other JSON bodies to 64 KiB", async () => {
    const body = JSON.stringify({ property: "email", value: { value: `${"a".repeat(70 * 1024)}@example.org` } });
    const res = await json("PATCH", `/api/auth/users/${cast.users.employee.id}`, cast.tokens.employee, body);
    expect(res.statusCode).toBe(413);
  });

  it("sends API answers with personal data, and the login answer, with Cache-Control: no-store", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { login: cast.users.employee.login, password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    for (const url of [`/api/auth/users/${cast.users.employee.id}`, "/api/notifications", "/api/progress/topics"]) {
      const answer = await ctx.app.inject({ method: "GET", url, headers: bearer(cast.tokens.employee) });
      expect(answer.headers["cache-control"], url).toBe("no-store");
    }
    const refused = await ctx.app.inject({ method: "GET", url: "/api/notifications" });
    expect(refused.headers["cache-control"]).toBe("no-store");
  });

  it("reads the client's IP TRUST_PROXY hops back in X-Forwarded-For", async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: "1", LOGIN_IP_MAX_FAILURES: "2" } });
    try {
      const attempt = (forwardedFor: string) =>
        proxied.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { login: "someone", password: "Wrong-1234!" },
          remoteAddress: "10.0.0.1",
          headers: { "x-forwarded-for": forwardedFor },
        });
      // A client cannot escape by writing its own X-Forwarded-For: the proxy's last entry counts.
      expect((await attempt("1.1.1.1, 198.51.100.9")).statusCode).toBe(401);
      expect((await attempt("2.2.2.2, 198.51.100.9")).statusCode).toBe(401);
      expect((await attempt("3.3.3.3, 198.51.100.9")).statusCode).toBe(429);
      expect((await attempt("198.51.100.10")).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});

describe("settings", () => {
  it("takes TRUST_PROXY as a hop count (false: none, true: one) and refuses anything else", () => {
    expect(loadConfig({}).trustProxyHops).toBe(0);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxyHops).toBe(0);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxyHops).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxyHops).toBe(2);
    for (const bad of ["yes", "-1", "1.5", "10.0.0.0/8"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY/);
  });

  it("takes SESSION_MAX_HOURS (default 12), the login and upload limits and the media quota, validated", () => {
    expect(loadConfig({}).sessionMaxSeconds).toBe(12 * 3600);
    expect(loadConfig({ SESSION_MAX_HOURS: "8" }).sessionMaxSeconds).toBe(8 * 3600);
    expect(loadConfig({}).limits).toEqual({
      maxFailures: 5,
      lockMinutes: 15,
      ipMaxFailures: 50,
      forgotPerMinute: 10,
      ipMaxErrors: 1000,
      uploadsPerMinute: 30,
      verifyPerMinute: 30,
    });
    expect(loadConfig({ UPLOAD_RATE_PER_MINUTE: "5" }).limits.uploadsPerMinute).toBe(5);
    expect(loadConfig({ VERIFY_RATE_PER_MINUTE: "5" }).limits.verifyPerMinute).toBe(5);
    expect(loadConfig({}).mediaQuotaBytes).toBe(10 * 1024 * 1024 * 1024);
    expect(loadConfig({ MEDIA_QUOTA_MB: "500" }).mediaQuotaBytes).toBe(500 * 1024 * 1024);
    expect(loadConfig({ MEDIA_QUOTA_MB: "0" }).mediaQuotaBytes).toBeNull();
    for (const [name, bad] of [
      ["SESSION_MAX_HOURS", "0"],
      ["SESSION_MAX_HOURS", "abc"],
      ["LOGIN_LOCK_MINUTES", "5"],
      ["LOGIN_MAX_FAILURES", "0"],
      ["API_IP_MAX_ERRORS", "0"],
      ["VERIFY_RATE_PER_MINUTE", "0"],
      ["UPLOAD_RATE_PER_MINUTE", "0"],
      ["MEDIA_QUOTA_MB", "-1"],
      ["MEDIA_QUOTA_MB", "1.5"],
    ] as const) {
      expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(new RegExp(name));
    }
  });
});
