import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Endpoint, endpoints, registeredRoutes, sharedRoutes } from "./endpoints";
import { Id } from "./schemas/common";

const all = Object.values(endpoints as Record<string, Endpoint>);

describe("endpoint table", () => {
  it("names each entry by its key, and has one route per method and path", () => {
    for (const [name, e] of Object.entries(endpoints)) expect(e.name).toBe(name);
    const keys = registeredRoutes().map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("has each feature file's calls, and no call in two files", async () => {
    const dir = new URL("./endpoints/", import.meta.url);
    const names: string[] = [];
    for (const file of fs.readdirSync(dir)) {
      const module: Record<string, unknown> = await import(new URL(file, dir).href);
      for (const [exported, calls] of Object.entries(module)) {
        if (exported.endsWith("Endpoints")) names.push(...Object.keys(calls as object));
      }
    }
    expect(names.sort()).toEqual(Object.keys(endpoints).sort());
  });

  it("answers with ids as numbers: no response schema holds Id, which reads ids from strings", () => {
    // The server encodes an answer through its schema: a response with Id's preprocessing failed
    // there with a 500 (an erasure request's answer did).
    const holdsId = (schema: unknown, seen = new Set<unknown>()): boolean => {
      if (schema === Id) return true;
      if (typeof schema !== "object" || schema === null || seen.has(schema)) return false;
      seen.add(schema);
      const def = (schema as { _zod?: { def?: object } })._zod?.def;
      const parts = def ? Object.values(def) : Object.values(schema);
      return parts.some((part) => holdsId(part, seen));
    };
    expect(all.filter((e) => e.response !== undefined && holdsId(e.response)).map((e) => e.name)).toEqual([]);
  });

  it("declares exactly the path's parameters in its params schema", () => {
    for (const e of [...all, ...(Object.values(sharedRoutes) as Endpoint[])]) {
      const inPath = [...e.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]).sort();
      const declared = e.params instanceof z.ZodObject ? Object.keys(e.params.shape).sort() : [];
      expect(declared, e.name).toEqual(inPath);
    }
  });

  it("gives every JSON call a 200 schema and no download or redirect one; downloads are GETs taking ?token=", () => {
    for (const e of all) {
      if (e.kind === "redirect") {
        // Opened by the browser and answered with a 302: no JSON answer, no token.
        expect(e.response, e.name).toBeUndefined();
        expect(e.method, e.name).toBe("GET");
        expect(e.query instanceof z.ZodObject && "token" in e.query.shape, e.name).toBe(false);
      } else if (e.kind === "download") {
        expect(e.response, e.name).toBeUndefined();
        expect(e.method, e.name).toBe("GET");
        // A download without a session (no 401: its URL is its own credential, e.g. the
        // calendar subscription) takes no token; every other one takes it in the query.
        const needsSession = e.errors.includes(401);
        expect(e.query instanceof z.ZodObject && "token" in e.query.shape, e.name).toBe(needsSession);
      } else {
        expect(e.response, e.name).toBeDefined();
      }
      expect(e.tags.length, e.name).toBeGreaterThan(0);
      expect(e.description.length, e.name).toBeGreaterThan(0);
    }
  });

  it("lets a shared route accept what each of its variants accepts", () => {
    const shared = sharedRoutes.adminUsersPost;
    for (const name of shared.variants) {
      const v = endpoints[name];
      expect([v.method, v.path]).toEqual([shared.method, shared.path]);
    }
    const user = { name: "Emma", surname: "Berg", login: "emma", password: "Xy-12345!" };
    expect(endpoints.adminUserCreate.body.safeParse(user).success).toBe(true);
    expect(shared.body.safeParse(user).success).toBe(true);
    const row = {
      surname: "B",
      name: "E",
      login: "e",
      facility: "F",
      activities: [],
      qualifications: [],
      password: "",
    };
    expect(shared.body.safeParse([row]).success).toBe(true);
    expect(shared.query.safeParse({ dryRun: "true" }).success).toBe(true);
  });
});
