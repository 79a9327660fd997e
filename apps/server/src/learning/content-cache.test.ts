import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { createTestApp, onPostgres, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { questions } from "../db/schema";
import { contentView } from "./content-cache";

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
});
