import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { createTestApp, type TestContext } from "../../test/helpers";
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
});
