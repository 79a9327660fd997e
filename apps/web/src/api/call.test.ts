import { API_PREFIX, type Endpoint, ErrorCode, endpoints } from "@carecampus/contract";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ApiError, createCaller } from "./call";

/**
 * A real HTTP server answering a few table entries with what it received (raw URL, decoded
 * params and query, body, bearer token), so the caller is exercised over the network.
 */
let server: FastifyInstance;
let baseUrl: string;
const hits: string[] = [];
/** Held answers of adminUserList: two identical GETs overlap for sure until the test lets them go. */
const held: (() => void)[] = [];
async function answerWhen(count: number) {
  while (hits.length < count) await new Promise((r) => setTimeout(r, 5));
  for (const go of held.splice(0)) go();
}

beforeAll(async () => {
  server = Fastify();
  const echo = (e: Endpoint, status = 200) =>
    server.route({
      method: e.method,
      url: `${API_PREFIX}${e.path}`,
      handler: async (request, reply) => {
        hits.push(`${request.method} ${request.url}`);
        if (e.name === "adminUserList") await new Promise<void>((resolve) => held.push(resolve));
        return reply.status(status).send({
          url: request.url,
          params: request.params,
          query: request.query,
          body: request.body ?? null,
          auth: request.headers.authorization ?? null,
          contentType: request.headers["content-type"] ?? null,
          idempotencyKey: request.headers["idempotency-key"] ?? null,
        });
      },
    });
  echo(endpoints.adminUserGet);
  echo(endpoints.adminUserList);
  echo(endpoints.overviewTopic);
  echo(endpoints.adminUserImport);
  echo(endpoints.questionNext);
  echo(endpoints.answerSubmit);
  server.route({
    method: "POST",
    url: `${API_PREFIX}${endpoints.login.path}`,
    handler: async (_req, reply) =>
      reply.status(401).send({ error_code: ErrorCode.invalidCredentials, message: "no", status_code: 401 }),
  });
  server.route({
    method: "GET",
    url: `${API_PREFIX}${endpoints.notificationList.path}`,
    handler: async (_req, reply) =>
      reply.status(401).send({ error_code: ErrorCode.sessionExpired, message: "expired", status_code: 401 }),
  });
  server.route({
    method: "DELETE",
    url: `${API_PREFIX}${endpoints.notificationRead.path}`,
    handler: async (_req, reply) =>
      reply.status(404).send({ error_code: ErrorCode.notFound, message: "gone", status_code: 404 }),
  });
  baseUrl = await server.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(() => server.close());

let token: string | undefined;
const ended: ApiError[] = [];
const shown: ApiError[] = [];
beforeEach(() => {
  hits.length = 0;
  ended.length = 0;
  shown.length = 0;
  token = "tok-1";
});

const caller = () =>
  createCaller({
    baseUrl: "",
    token: () => token,
    onSessionEnd: (e) => ended.push(e),
    onError: (e) => shown.push(e),
  });

/** The caller against the test server (baseUrl is known only after listen). */
const api = () =>
  createCaller({ baseUrl, token: () => token, onSessionEnd: (e) => ended.push(e), onError: (e) => shown.push(e) });

describe("call", () => {
  it("fills and encodes path parameters and sends the bearer token", async () => {
    const { call } = api();
    const res = (await call(endpoints.adminUserGet, { params: { id: 42 } })) as unknown as {
      url: string;
      params: unknown;
      auth: string;
    };
    expect(res.url).toBe("/api/auth/admin/users/42");
    expect(res.params).toEqual({ id: "42" });
    expect(res.auth).toBe("Bearer tok-1");
    const q = (await call(endpoints.questionNext, {
      params: { topic: 1, training: 2, q: 3 },
      query: { practice: "true" },
    })) as unknown as { url: string };
    expect(q.url).toBe("/api/progress/topics/1/trainings/2/questionnaires/3/questions?practice=true");
  });

  it("serialises the query, leaving out undefined values", async () => {
    const { call } = api();
    const res = (await call(endpoints.overviewTopic, {
      params: { topicId: 7 },
      query: { facilityName: "Haus Sonnen & Hof/2" },
    })) as unknown as { url: string; query: unknown };
    expect(res.url).toBe("/api/progress/admin/topics/7?facilityName=Haus%20Sonnen%20%26%20Hof%2F2");
    expect(res.query).toEqual({ facilityName: "Haus Sonnen & Hof/2" });
    const none = (await call(endpoints.overviewTopic, {
      params: { topicId: 7 },
      query: { facilityName: undefined },
    })) as unknown as { url: string };
    expect(none.url).toBe("/api/progress/admin/topics/7");
  });

  it("sends the body as JSON with the entry's method", async () => {
    const { call } = api();
    const rows = [
      { surname: "B", name: "E", login: "e", facility: "F", activities: [], qualifications: [], password: "" },
    ];
    const res = (await call(endpoints.adminUserImport, {
      query: { deleteNotIncludedUsers: "false", dryRun: "true" },
      body: rows,
    })) as unknown as { url: string; body: unknown; contentType: string };
    expect(hits).toEqual(["POST /api/auth/admin/users?deleteNotIncludedUsers=false&dryRun=true"]);
    expect(res.body).toEqual(rows);
    expect(res.contentType).toBe("application/json");
  });

  it("sends a call's own headers (the answer's Idempotency-Key) beside the token", async () => {
    const { call } = api();
    const res = (await call(endpoints.answerSubmit, {
      params: { topic: 1, training: 2, q: 3, question: 4 },
      body: [5],
      headers: { "idempotency-key": "abcdef0123456789" },
    })) as unknown as { idempotencyKey: string; auth: string | null; body: unknown };
    expect(res.idempotencyKey).toBe("abcdef0123456789");
    expect(res.auth).not.toBeNull();
    expect(res.body).toEqual([5]);
  });

  it("shares identical GETs in flight, and only those", async () => {
    const { call } = api();
    const a = call(endpoints.adminUserList, { query: { query: "emma" } });
    const b = call(endpoints.adminUserList, { query: { query: "emma" } });
    expect(b).toBe(a);
    // Another query, or another token, is another request.
    const c = call(endpoints.adminUserList, { query: { query: "jonas" } });
    token = "tok-2";
    const d = call(endpoints.adminUserList, { query: { query: "emma" } });
    expect(c).not.toBe(a);
    expect(d).not.toBe(a);
    // A GET with a signal is the caller's own (it may cancel it).
    const e = call(endpoints.adminUserList, { query: { query: "emma" }, signal: new AbortController().signal });
    expect(e).not.toBe(d);
    await answerWhen(4);
    const results = await Promise.all([a, b, c, d, e]);
    expect(results[0]).toBe(results[1]);
    expect(hits.sort()).toEqual([
      "GET /api/auth/admin/users?query=emma",
      "GET /api/auth/admin/users?query=emma",
      "GET /api/auth/admin/users?query=emma",
      "GET /api/auth/admin/users?query=jonas",
    ]);
    // Once answered, the same GET goes out again.
    hits.length = 0;
    const again = call(endpoints.adminUserList, { query: { query: "emma" } });
    await answerWhen(1);
    await again;
    expect(hits).toEqual(["GET /api/auth/admin/users?query=emma"]);
  });

  it("ends the session on 401 or 1010, except for the login itself, and toasts other errors unless silent", async () => {
    const { call } = api();
    await expect(call(endpoints.notificationList)).rejects.toMatchObject({
      status: 401,
      code: ErrorCode.sessionExpired,
    });
    expect(ended).toHaveLength(1);
    expect(shown).toHaveLength(0);

    await expect(call(endpoints.login, { body: { login: "a", password: "b" } })).rejects.toMatchObject({
      status: 401,
      code: ErrorCode.invalidCredentials,
    });
    expect(ended).toHaveLength(1);
    expect(shown).toHaveLength(1);

    await expect(call(endpoints.notificationRead, { params: { id: 5 }, silent: true })).rejects.toMatchObject({
      status: 404,
    });
    expect(shown).toHaveLength(1);
    await expect(call(endpoints.notificationRead, { params: { id: 5 } })).rejects.toMatchObject({ status: 404 });
    expect(shown).toHaveLength(2);

    // A token of its own (a login link): a 401 is that token's, not the session's.
    await expect(call(endpoints.notificationList, { token: "link", silent: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(ended).toHaveLength(1);
  });

  it("turns a network failure into ApiError 0", async () => {
    const { call } = createCaller({
      baseUrl: "http://127.0.0.1:1",
      token: () => undefined,
      onSessionEnd: (e) => ended.push(e),
      onError: (e) => shown.push(e),
    });
    await expect(call(endpoints.version)).rejects.toMatchObject({ status: 0 });
    expect(shown).toHaveLength(1);
  });
});

describe("authedUrl and authedHref", () => {
  it("builds download URLs from the table with the token in the query", () => {
    const { authedUrl } = caller();
    token = "a b";
    expect(authedUrl(endpoints.certificatePdf, { query: { id: 9 } })).toBe(
      "/api/progress/export/certificate?id=9&token=a%20b",
    );
    expect(authedUrl(endpoints.staticIcon, { params: { file: "icon_hand.svg" } })).toBe(
      "/api/static/icon/icon_hand.svg?token=a%20b",
    );
    expect(authedUrl(endpoints.overviewExport, { query: { facilityName: undefined } })).toBe(
      "/api/progress/admin/export/xlsx?token=a%20b",
    );
  });

  it("adds the token only to a download link of the table", () => {
    const { authedHref } = caller();
    expect(authedHref("/api/progress/export/certificate?id=9")).toBe(
      "/api/progress/export/certificate?id=9&token=tok-1",
    );
    expect(authedHref("/api/auth/admin/users")).toBe("/api/auth/admin/users");
    expect(authedHref("https://example.org/x")).toBe("https://example.org/x");
  });
});
