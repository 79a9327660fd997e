import { API_PREFIX, type Endpoint, ErrorCode, endpoints, registeredRoutes } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { buildApp } from "../app";

let ctx: TestContext;
/** A second app on the test's database, built with an onRoute hook that records every route. */
let app: FastifyInstance;
const seen: { method: string; url: string }[] = [];

beforeAll(async () => {
  ctx = await createTestApp();
  app = await buildApp(ctx.deps, {
    onRoute: (r) => {
      for (const method of [r.method].flat()) seen.push({ method, url: r.url });
    },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await ctx.close();
});

const key = (method: string, url: string) => `${method} ${url}`;

describe("the endpoint table", () => {
  it("is exactly what the server registers under /api (the docs aside)", () => {
    const api = seen.filter((r) => r.url.startsWith(`${API_PREFIX}/`) && !r.url.startsWith(`${API_PREFIX}/docs`));
    const gets = new Set(api.filter((r) => r.method === "GET").map((r) => r.url));
    // Fastify answers HEAD for every GET by itself; any other HEAD route would have to be in the table.
    const registered = api.filter((r) => !(r.method === "HEAD" && gets.has(r.url))).map((r) => key(r.method, r.url));
    const table = registeredRoutes().map((e) => key(e.method, `${API_PREFIX}${e.path}`));

    expect(new Set(registered).size).toBe(registered.length);
    expect([...registered].sort()).toEqual([...new Set(table)].sort());
    // Each call of the table (a shared route's variants included) has its route.
    for (const e of Object.values(endpoints as Record<string, Endpoint>)) {
      expect(registered, e.name).toContain(key(e.method, `${API_PREFIX}${e.path}`));
    }
    expect(registered.length).toBeGreaterThan(40);
  });

  it("documents each route with the entry's schemas", () => {
    const doc = app.swagger() as unknown as {
      paths: Record<
        string,
        Record<string, { tags?: string[]; description?: string; responses: Record<string, unknown> }>
      >;
    };
    for (const e of registeredRoutes()) {
      const openApiPath = e.path.replace(/:([A-Za-z_]\w*)/g, "{$1}");
      const op = doc.paths[openApiPath]?.[e.method.toLowerCase()];
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op?.tags).toEqual([...e.tags]);
      expect(op?.description).toBe(e.description);
      const statuses = Object.keys(op?.responses ?? {});
      if (e.kind === "json") expect(statuses, e.name).toContain("200");
      for (const status of e.errors) expect(statuses, e.name).toContain(String(status));
    }
  });

  it("validates with the entry's schemas and answers with the spec §8 body", async () => {
    const cast = await createCast(ctx);
    const bad = await app.inject({
      method: "GET",
      url: "/api/auth/admin/users/abc",
      headers: bearer(cast.tokens.administrator),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });
    // The response schema limits what is sent: the 200 answer parses with the entry's schema.
    const me = await app.inject({
      method: "GET",
      url: `/api/auth/users/${cast.users.administrator.id}`,
      headers: bearer(cast.tokens.administrator),
    });
    expect(me.statusCode).toBe(200);
    expect(endpoints.userGet.response.strict().safeParse(me.json()).success).toBe(true);
  });
});
