import { eq, sql, TransactionRollbackError } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureIds, importFixture } from "../../test/content-fixture";
import {
  bearer,
  callAs,
  createCast,
  createTestApp,
  freshPng,
  type Method,
  onPostgres,
  type TestContext,
} from "../../test/helpers";
import { otherSession } from "../../test/second-server";
import type { Db, Tx } from "./client";
import { media, questions } from "./schema";

/*
 * Migration 0016: the learning content's generation is written once per transaction, as it
 * commits, and nothing else about a content write holds a row that other writers need.
 */

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let ids: FixtureIds;
let facilityQn = 0;

const call = (token: string, method: Method, url: string, payload?: unknown) =>
  callAs(ctx, token, method, url, payload);
const upload = (url: string, body: Buffer) =>
  ctx.app.inject({
    method: "POST",
    url: `/api${url}`,
    headers: { ...bearer(cast.tokens.administrator), "content-type": "image/png" },
    payload: body,
  });
const question = (text: string, mediaRef: { type: "image"; id: number } | null = null) => ({
  type: "single",
  text,
  answers: [
    { text: "Ja", correct: true },
    { text: "Nein", correct: false },
  ],
  explanation: "<p>Ja.</p>",
  hint: null,
  media: mediaRef,
});

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  ids = await importFixture(ctx.deps.database.db);
  const created = await call(cast.tokens.administrator, "POST", "/authoring/questionnaires", {
    training_id: ids.training,
    name: "Unser Alarmplan",
  });
  expect(created.statusCode, created.body).toBe(200);
  facilityQn = created.json().id;
  // Every write of the generation row, counted by a trigger of the test's own.
  await ctx.deps.database.db.execute(sql`create table "bump_log" ("id" serial primary key)`);
  await ctx.deps.database.db.execute(
    sql.raw(`create function "log_bump"() returns trigger language plpgsql as $$
      begin insert into "bump_log" default values; return null; end $$`),
  );
  await ctx.deps.database.db.execute(
    sql.raw(`create trigger "app_meta_bump_log" after insert or update on "app_meta" for each row
      when (new."key" = 'content_generation') execute function "log_bump"()`),
  );
});
afterAll(() => ctx.close());

/** Ends a test's transaction that closes with tx.rollback(); an assertion that failed inside still fails the test. */
const rolledBack = (err: unknown) => {
  if (!(err instanceof TransactionRollbackError)) throw err;
};

async function generation(db: Db | Tx = ctx.deps.database.db): Promise<string | undefined> {
  const { rows } = await db.execute<{ value: string }>(
    sql`select "value" from "app_meta" where "key" = 'content_generation'`,
  );
  return rows[0]?.value;
}
async function bumps(): Promise<number> {
  const { rows } = await ctx.deps.database.db.execute<{ n: number }>(sql`select count(*)::int as n from "bump_log"`);
  return rows[0]?.n ?? 0;
}
async function flag(tx: Tx): Promise<string> {
  const { rows } = await tx.execute<{ flag: string | null }>(
    sql`select current_setting('cc.content_written', true) as "flag"`,
  );
  return rows[0]?.flag ?? "";
}

describe("the content generation", () => {
  it("is written once by a transaction of 10 000 content rows, as it commits, not before", async () => {
    const { db } = ctx.deps.database;
    const [q1] = await db.select({ id: questions.id }).from(questions).where(eq(questions.key, "q1"));
    const before = await generation();
    const counted = await bumps();
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into "answers" ("question_id", "key", "text", "correct", "position", "retired")
        select ${q1?.id ?? 0}, 'bulk-' || g, 'Antwort ' || g, false, 1000 + g, true from generate_series(1, 10000) g`);
      await tx.execute(sql`update "answers" set "text" = "text" || '.' where "key" like 'bulk-%'`);
      // Nothing written to app_meta yet, so nobody waits on its row meanwhile; the flag is set.
      expect(await generation(tx)).toBe(before);
      expect(await flag(tx)).toBe("on");
    });
    expect(await bumps()).toBe(counted + 1);
    const after = await generation();
    expect(after).not.toBe(before);
    await db.execute(sql`delete from "answers" where "key" like 'bulk-%'`);
    expect(await bumps()).toBe(counted + 2);
    expect(await generation()).not.toBe(after);
  });

  it("stays as it was after a rolled-back transaction or savepoint", async () => {
    const { db } = ctx.deps.database;
    const before = await generation();
    const counted = await bumps();
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`update "trainings" set "points" = "points" + 1`);
        tx.rollback();
      })
      .catch(rolledBack);
    await db.transaction(async (tx) => {
      await tx
        .transaction(async (savepoint) => {
          await savepoint.execute(sql`update "trainings" set "points" = "points" + 1`);
          throw new Error("undone");
        })
        .catch(() => {});
      expect(await flag(tx)).not.toBe("on");
    });
    expect(await generation()).toBe(before);
    expect(await bumps()).toBe(counted);
  });

  it("ignores wiki images and new question media; a question showing a media row, or that row's kind changing, counts", async () => {
    const { db } = ctx.deps.database;
    const before = await generation();
    const wiki = await upload("/wiki/images", freshPng());
    expect(wiki.statusCode, wiki.body).toBe(200);
    const image = await upload("/authoring/media", freshPng());
    expect(image.statusCode, image.body).toBe(200);
    expect(await generation()).toBe(before);
    // Of a media row no question shows, even the kind is nobody's concern.
    await db.update(media).set({ kind: "image" }).where(eq(media.id, wiki.json().id));
    await db.update(media).set({ kind: "wiki" }).where(eq(media.id, wiki.json().id));
    expect(await generation()).toBe(before);

    const saved = await call(
      cast.tokens.administrator,
      "POST",
      `/authoring/questionnaires/${facilityQn}/questions`,
      question("Mit Bild", { type: "image", id: image.json().id }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const shown = await generation();
    expect(shown).not.toBe(before);
    // The bytes or size of a shown image are not what the learning content reads.
    await db
      .update(media)
      .set({ size: sql`${media.size}` })
      .where(eq(media.id, image.json().id));
    expect(await generation()).toBe(shown);
    await db.update(media).set({ kind: "video" }).where(eq(media.id, image.json().id));
    expect(await generation()).not.toBe(shown);
    await db.update(media).set({ kind: "image" }).where(eq(media.id, image.json().id));
  });

  it("is written at once by TRUNCATE, which has no deferred triggers, and undone with it", async () => {
    const { db } = ctx.deps.database;
    const before = await generation();
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`truncate "answers" cascade`);
        expect(await generation(tx)).not.toBe(before);
        expect(await flag(tx)).toBe("on");
        tx.rollback();
      })
      .catch(rolledBack);
    expect(await generation()).toBe(before);
  });

  it.skipIf(!onPostgres)(
    "holds no row while a content transaction works: wiki uploads and authoring saves go on, the generation row is free",
    async () => {
      const { db } = ctx.deps.database;
      const other = await otherSession(ctx);
      try {
        const before = await generation();
        // A long content import, as far as locks go: a content write, not committed.
        await other.query("begin");
        await other.query(`update "questions" set "text" = "text" where "key" = 'q1'`);
        const wiki = await upload("/wiki/images", freshPng());
        expect(wiki.statusCode, wiki.body).toBe(200);
        const saved = await call(
          cast.tokens.administrator,
          "POST",
          `/authoring/questionnaires/${facilityQn}/questions`,
          question("Während des Imports"),
        );
        expect(saved.statusCode, saved.body).toBe(200);
        const during = await generation();
        expect(during).not.toBe(before);
        // Nobody holds the generation row: it can be locked at once.
        await db.transaction(async (tx) => {
          await tx.execute(sql`select "value" from "app_meta" where "key" = 'content_generation' for update nowait`);
        });
        await other.query("commit");
        expect(await generation()).not.toBe(during);
      } finally {
        await other.end();
      }
    },
  );
});
