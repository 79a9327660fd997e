import { and, eq, sql, TransactionRollbackError } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { createTestApp, onPostgres, type TestContext } from "../../test/helpers";
import { otherSession } from "../../test/second-server";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { answers, questions } from "../db/schema";
import { type ContentView, contentView } from "./content-cache";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe("the content kept in memory", () => {
  it("is read once per content generation, and an import makes the next read see the new content", async () => {
    const db = ctx.deps.database.db;
    await importPackage(db, loadPackage(writeFixture({ version: "1.0.0" })));
    const first = await contentView(db);
    expect(await contentView(db)).toBe(first);
    const [q1] = await db.select().from(questions).where(eq(questions.key, "q1"));
    expect(first.questions.get(q1?.id ?? 0)?.text).not.toContain("(neu)");

    // A newer package (imported by the CLI or another server: all that counts is the database).
    await importPackage(db, loadPackage(writeFixture({ version: "2.0.0", v2: true })));
    const second = await contentView(db);
    expect(second).not.toBe(first);
    expect(second.generation).not.toBe(first.generation);
    expect(second.questions.get(q1?.id ?? 0)?.text).toContain("(neu)");
    // A retired question leaves its questionnaire's list and total.
    const retired = [...second.questions.values()].filter((q) => q.retired).map((q) => q.id);
    expect(retired.length).toBeGreaterThan(0);
    for (const ids of second.questionIds.values()) for (const id of retired) expect(ids).not.toContain(id);
    for (const qn of second.questionnaires) expect(qn.total).toBe(second.questionIds.get(qn.id)?.length ?? 0);
  });

  it("is read again after any write to the content, also one that bypasses the services", async () => {
    const db = ctx.deps.database.db;
    const before = await contentView(db);
    expect(await contentView(db)).toBe(before);
    const [q1] = await db.select().from(questions).where(eq(questions.key, "q1"));
    // As a tool or another server's authoring save would: a statement on a content table.
    await db
      .update(questions)
      .set({ text: "Direkt geändert" })
      .where(eq(questions.id, q1?.id ?? 0));
    const after = await contentView(db);
    expect(after).not.toBe(before);
    expect(after.generation).not.toBe(before.generation);
    expect(after.questions.get(q1?.id ?? 0)?.text).toBe("Direkt geändert");
    expect(await contentView(db)).toBe(after);
    // Each table of the content: a new generation for each write.
    const [{ n: trainingCount } = { n: 0 }] = (
      await db.execute<{ n: number }>(sql`select count(*)::int as n from "trainings"`)
    ).rows;
    expect(trainingCount).toBeGreaterThan(0);
    await db.execute(sql`update "trainings" set "points" = "points" where true`);
    expect(await contentView(db)).not.toBe(after);
  });

  it.skipIf(!onPostgres)(
    "while the database's notifications do not reach the server, every read checks the generation; after, it starts empty",
    async () => {
      const { db, changes } = ctx.deps.database;
      const [{ name } = { name: "" }] = (await db.execute<{ name: string }>(sql`select current_database() as name`))
        .rows;
      const url = new URL(process.env.DATABASE_URL ?? "");
      url.pathname = `/${name}`;
      const other = new pg.Client({ connectionString: url.toString() });
      await other.connect();
      try {
        const before = await contentView(db);
        // Every connection of this server that only listens is cut.
        await other.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and query like 'listen %'`,
        );
        await vi.waitFor(() => expect(changes.live).toBe(false), { timeout: 10_000 });
        // Another server's write, while nobody of this one listens.
        await other.query(`update questions set text = 'Während der Pause' where key = 'q1'`);
        const during = await contentView(db);
        expect(during).not.toBe(before);
        expect([...during.questions.values()].some((q) => q.text === "Während der Pause")).toBe(true);
        await vi.waitFor(() => expect(changes.live).toBe(true), { timeout: 20_000 });
        const after = await contentView(db);
        expect(after.generation).toBe(during.generation);
        expect(await contentView(db)).toBe(after);
      } finally {
        await other.end();
      }
    },
    40_000,
  );

  describe("a view is one version of the content", () => {
    /** A live question with one of its live answers, and the texts of version A written to both. */
    async function versionA(): Promise<{ questionId: number; answerId: number; generation: string }> {
      const db = ctx.deps.database.db;
      const [q] = await db
        .select({ id: questions.id })
        .from(questions)
        .where(and(eq(questions.key, "q1"), eq(questions.retired, false)));
      const [a] = await db
        .select({ id: answers.id })
        .from(answers)
        .where(and(eq(answers.questionId, q?.id ?? 0), eq(answers.retired, false)));
      const questionId = q?.id ?? 0;
      const answerId = a?.id ?? 0;
      await db.transaction(async (tx) => {
        await tx.update(questions).set({ text: "Fassung A" }).where(eq(questions.id, questionId));
        await tx.update(answers).set({ text: "Antwort A" }).where(eq(answers.id, answerId));
      });
      const { rows } = await db.execute<{ value: string }>(
        sql`select "value" from "app_meta" where "key" = 'content_generation'`,
      );
      return { questionId, answerId, generation: rows[0]?.value ?? "" };
    }

    const texts = (view: ContentView, questionId: number, answerId: number) => ({
      question: view.questions.get(questionId)?.text,
      answer: view.questions.get(questionId)?.answers.find((x) => x.id === answerId)?.text,
    });

    it("a content commit while the view loads is in it whole, under its own generation, or not at all", async () => {
      const db = ctx.deps.database.db;
      const a = await versionA();
      // The view is loaded afresh (the write emptied the memory) while version B commits. PGlite
      // runs queries in the order asked: once this one is answered the view has read its
      // generation and asked for its next read, and version B is asked for after it.
      const loading = contentView(db);
      await db.execute(sql`select 1`);
      await db.transaction(async (tx) => {
        await tx.update(questions).set({ text: "Fassung B" }).where(eq(questions.id, a.questionId));
        await tx.update(answers).set({ text: "Antwort B" }).where(eq(answers.id, a.answerId));
      });
      const view = await loading;
      const seen = texts(view, a.questionId, a.answerId);
      if (view.generation === a.generation) expect(seen).toEqual({ question: "Fassung A", answer: "Antwort A" });
      else expect(seen).toEqual({ question: "Fassung B", answer: "Antwort B" });
      const now = await contentView(db);
      expect(now.generation).not.toBe(a.generation);
      expect(texts(now, a.questionId, a.answerId)).toEqual({ question: "Fassung B", answer: "Antwort B" });
    });

    it.skipIf(!onPostgres)(
      "a commit between the view's reads stays out of it: the generation and all five reads are one snapshot",
      async () => {
        const db = ctx.deps.database.db;
        const a = await versionA();
        const other = await otherSession(ctx);
        try {
          const otherPid = (await other.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid;
          // The view's last read (the answers) waits for this lock, its first reads are done by then.
          await other.query("begin");
          await other.query(`lock table "answers" in access exclusive mode`);
          const loading = contentView(db);
          await vi.waitFor(
            async () => {
              const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and pid <> ${otherPid} and state = 'active'
                  and wait_event_type = 'Lock'
                  and query like '%from "answers"%'`);
              expect(rows[0]?.n).toBe(1);
            },
            { timeout: 10_000 },
          );
          await other.query(`update "questions" set "text" = 'Fassung B' where "id" = $1`, [a.questionId]);
          await other.query(`update "answers" set "text" = 'Antwort B' where "id" = $1`, [a.answerId]);
          await other.query("commit");
          const view = await loading;
          expect(view.generation).toBe(a.generation);
          expect(texts(view, a.questionId, a.answerId)).toEqual({ question: "Fassung A", answer: "Antwort A" });
        } finally {
          await other.end();
        }
        // Version B arrives with its notification, under a generation of its own.
        await vi.waitFor(async () => {
          const now = await contentView(db);
          expect(texts(now, a.questionId, a.answerId)).toEqual({ question: "Fassung B", answer: "Antwort B" });
          expect(now.generation).not.toBe(a.generation);
        });
      },
      40_000,
    );

    it("inside a transaction that wrote content, the view is that transaction's own and kept nowhere", async () => {
      const db = ctx.deps.database.db;
      const a = await versionA();
      const before = await contentView(db);
      await db
        .transaction(async (tx) => {
          await tx.update(questions).set({ text: "Nur hier" }).where(eq(questions.id, a.questionId));
          const own = await contentView(tx);
          expect(own.generation).toBe("");
          expect(own.questions.get(a.questionId)?.text).toBe("Nur hier");
          tx.rollback();
        })
        .catch((err: unknown) => {
          // The rollback asked for; an assertion that failed inside still fails the test.
          if (!(err instanceof TransactionRollbackError)) throw err;
        });
      const after = await contentView(db);
      expect(after.generation).toBe(before.generation);
      expect(after.questions.get(a.questionId)?.text).toBe("Fassung A");
      // Read inside a transaction that wrote nothing, the view is the database's.
      await db.transaction(async (tx) => {
        const seen = await contentView(tx);
        expect(seen.generation).toBe(before.generation);
        expect(seen.questions.get(a.questionId)?.text).toBe("Fassung A");
      });
    });
  });
});
