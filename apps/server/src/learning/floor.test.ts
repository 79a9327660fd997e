import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureIds, importFixture } from "../../test/content-fixture";
import { createFacility, createTestApp, createUser, type TestContext } from "../../test/helpers";
import { buildApp } from "../app";
import { loadConfig } from "../config";
import { questions } from "../db/schema";
import { createFloorTable } from "./floor";

let ctx: TestContext;
let ids: FixtureIds;

beforeAll(async () => {
  ctx = await createTestApp();
  ids = await importFixture(ctx.deps.database.db);
});
afterAll(() => ctx.close());

describe("the bench's floor route (BENCH_FLOOR_ROUTE)", () => {
  it("is off unless the bench sets it", async () => {
    expect(loadConfig({}).benchFloorRoute).toBe(false);
    expect(loadConfig({ BENCH_FLOOR_ROUTE: "false" }).benchFloorRoute).toBe(false);
    const res = await ctx.app.inject({ method: "POST", url: "/bench/floor/1/1/1", payload: [1] });
    expect(res.statusCode).toBe(404);
  });

  it("with BENCH_FLOOR_ROUTE=true takes the learner's lock and inserts one attempt-shaped row", async () => {
    const { db } = ctx.deps.database;
    await createFloorTable(db);
    const facility = await createFacility(ctx);
    const learner = await createUser(ctx, ["employee"], facility.id);
    const [question] = await db.select({ id: questions.id }).from(questions).limit(1);
    let app: FastifyInstance | null = null;
    try {
      app = await buildApp({ ...ctx.deps, config: { ...ctx.deps.config, benchFloorRoute: true } });
      const url = `/bench/floor/${learner.id}/${ids.qn1}/${question?.id}`;
      expect((await app.inject({ method: "POST", url, payload: [1, 2] })).statusCode).toBe(200);
      expect((await app.inject({ method: "POST", url, payload: [3] })).statusCode).toBe(200);
      expect((await app.inject({ method: "POST", url: "/bench/floor/x/1/1", payload: [] })).statusCode).toBe(400);
      const rows = await db.execute<{ user_id: number; answer_ids: number[] }>(
        sql`select user_id, answer_ids from bench_floor order by id`,
      );
      expect(rows.rows).toEqual([
        { user_id: learner.id, answer_ids: [1, 2] },
        { user_id: learner.id, answer_ids: [3] },
      ]);
      // The rows are not attempts: the learner's progress has none.
      const attempts = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from quiz_attempts where user_id = ${learner.id}`,
      );
      expect(attempts.rows[0]?.n).toBe(0);
    } finally {
      await app?.close();
    }
  });
});
