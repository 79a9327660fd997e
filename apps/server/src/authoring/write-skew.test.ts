import { ErrorCode } from "@carecampus/contract";
import { eq, sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FixtureIds, importFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, onPostgres, type TestContext } from "../../test/helpers";
import { otherSession } from "../../test/second-server";
import { questionnaires, trainings } from "../db/schema";

/*
 * A new questionnaire and a save that makes its training passive, or two new questionnaires of
 * one training, each check what the other is about to write (issue 26 "authoring write skew"):
 * both lock the training's row first. The other writer is a plain session here, held half-way
 * (as the other request would be), so the order is certain. PostgreSQL only: PGlite runs one
 * transaction at a time, so there the two never overlap.
 */
describe.skipIf(!onPostgres)("writes to one training, at the same time (PostgreSQL)", () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let ids: FixtureIds;
  let other: pg.Client;
  let otherPid = 0;

  beforeAll(async () => {
    ctx = await createTestApp();
    cast = await createCast(ctx);
    ids = await importFixture(ctx.deps.database.db);
    other = await otherSession(ctx);
    otherPid = (await other.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid ?? 0;
  });
  afterAll(async () => {
    await other.end();
    await ctx.close();
  });

  type Method = "POST" | "PUT";
  /** A request sent at once (inject sends only when asked for its answer: then() asks). */
  const call = (method: Method, url: string, payload: unknown) =>
    ctx.app
      .inject({
        method,
        url: `/api${url}`,
        headers: bearer(cast.tokens.contentmanager),
        payload: payload as object,
      })
      .then((res) => res);
  const training = (name: string, passive = false) => ({
    topic_id: ids.topic,
    name,
    icon: "haende",
    validity_months: 12,
    passive,
    points: 1,
    wiki_link: null,
  });
  const newTraining = async (name: string): Promise<number> => {
    const res = await call("POST", "/authoring/trainings", training(name));
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  };
  /**
   * Until a statement of the server waits for a lock (the other session holds the training's row).
   * Asked outside the other session's transaction, which would see pg_stat_activity as it was first.
   */
  const waitsForTheTraining = () =>
    vi.waitFor(
      async () => {
        const { rows } = await ctx.deps.database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity
           where datname = current_database() and pid <> ${otherPid} and state = 'active'
             and wait_event_type = 'Lock'`,
        );
        expect(rows[0]?.n).toBe(1);
      },
      { timeout: 10_000 },
    );
  /** What the other request does under its lock: the training's row locked, a questionnaire added. */
  const addQuestionnaireHalfway = async (trainingId: number) => {
    await other.query("begin");
    await other.query(`select "id" from "trainings" where "id" = $1 for no key update`, [trainingId]);
    await other.query(
      `insert into "questionnaires" ("training_id", "key", "name", "position", "origin", "status")
       values ($1, '@c-halb', 'Halb fertig', 0, 'common', 'draft')`,
      [trainingId],
    );
  };
  const questionnairesOf = (trainingId: number) =>
    ctx.deps.database.db
      .select({ position: questionnaires.position })
      .from(questionnaires)
      .where(eq(questionnaires.trainingId, trainingId));

  it("a new questionnaire waits for the save that makes its training passive, and is refused", async () => {
    const id = await newTraining("Evakuierung");
    // The other save, half-way: the training made passive, not committed yet.
    await other.query("begin");
    await other.query(`update "trainings" set "passive" = true where "id" = $1`, [id]);
    const answer = call("POST", "/authoring/questionnaires", { training_id: id, name: "Fragen zur Evakuierung" });
    await waitsForTheTraining();
    await other.query("commit");
    const res = await answer;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error_code).toBe(ErrorCode.conflict);
    expect(await questionnairesOf(id)).toEqual([]);
  });

  it("a save that makes a training passive waits for a new questionnaire of it, and is refused", async () => {
    const id = await newTraining("Erste Hilfe");
    await addQuestionnaireHalfway(id);
    const answer = call("PUT", `/authoring/trainings/${id}`, training("Erste Hilfe", true));
    await waitsForTheTraining();
    await other.query("commit");
    const res = await answer;
    expect(res.statusCode, res.body).toBe(409);
    const [row] = await ctx.deps.database.db
      .select({ passive: trainings.passive })
      .from(trainings)
      .where(eq(trainings.id, id));
    expect(row?.passive).toBe(false);
  });

  it("two new questionnaires of one training get two positions", async () => {
    const id = await newTraining("Brandschutz");
    await addQuestionnaireHalfway(id);
    const answer = call("POST", "/authoring/questionnaires", { training_id: id, name: "Zweiter Teil" });
    await waitsForTheTraining();
    await other.query("commit");
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    const positions = (await questionnairesOf(id)).map((q) => q.position).sort();
    expect(positions).toEqual([0, 1]);
  });
});
