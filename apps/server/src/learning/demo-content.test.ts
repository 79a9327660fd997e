import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { DEMO_CONTENT } from "../bootstrap";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { answers, questions } from "../db/schema";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  await importPackage(ctx.deps.database.db, loadPackage(DEMO_CONTENT));
});
afterAll(() => ctx.close());

describe("the demo content package", () => {
  it("has at least 6 topics, 15 trainings (one passive) and 1–3 questionnaires of 5–10 questions each", () => {
    const pkg = loadPackage(DEMO_CONTENT);
    expect(pkg.topics.length).toBeGreaterThanOrEqual(6);
    expect(pkg.trainings.length).toBeGreaterThanOrEqual(15);
    expect(pkg.trainings.some((t) => t.passive)).toBe(true);
    for (const t of pkg.trainings.filter((x) => !x.passive)) {
      expect(t.questionnaires.length, t.key).toBeGreaterThanOrEqual(1);
      expect(t.questionnaires.length, t.key).toBeLessThanOrEqual(3);
      for (const q of t.questionnaires) {
        expect(q.questions.length, `${t.key}/${q.key}`).toBeGreaterThanOrEqual(5);
        expect(q.questions.length, `${t.key}/${q.key}`).toBeLessThanOrEqual(10);
      }
    }
    const types = new Set(
      pkg.trainings.flatMap((t) => t.questionnaires.flatMap((q) => q.questions.map((x) => x.type))),
    );
    expect(types).toEqual(new Set(["single", "multiple"]));
    expect(pkg.media.some((m) => m.kind === "video")).toBe(true);
    // The trainings a law requires name it (show-legal-compliance); the others name none.
    const legal = new Map(pkg.trainings.map((t) => [t.key, t.legal_basis ?? null]));
    expect(legal.get("lebensmittelhygiene")).toContain("§§ 42, 43 IfSG");
    expect(legal.get("brandschutz-grundlagen")).toContain("§ 22 DGUV Vorschrift 1");
    expect(legal.get("demenz-grundlagen")).toBeNull();
  });

  // Walks every questionnaire of the demo content through the API and checks that no
  // question payload carries anything that gives the right answers away.
  it("never leaks right answers, explanations or hints in any question payload", async () => {
    const db = ctx.deps.database.db;
    const token = cast.tokens.employee;
    const get = (url: string) => ctx.app.inject({ method: "GET", url, headers: bearer(token) });
    const topics = (await get("/api/progress/topics")).json() as { id: number }[];
    let scanned = 0;
    for (const topic of topics) {
      const { trainings } = (await get(`/api/progress/topics/${topic.id}/trainings`)).json();
      for (const training of trainings as { id: number; passive: boolean }[]) {
        if (training.passive) continue;
        const base = `/api/progress/topics/${topic.id}/trainings/${training.id}/questionnaires`;
        const { questionnaires } = (await get(base)).json();
        for (const qn of questionnaires as { id: number }[]) {
          for (let i = 0; i < 20; i++) {
            const res = await get(`${base}/${qn.id}/questions`);
            const body = res.json();
            if (!body.question) break;
            const q = body.question;
            scanned += 1;
            const [row] = await db.select().from(questions).where(eq(questions.id, q.id));
            const right = await db
              .select()
              .from(answers)
              .where(and(eq(answers.questionId, q.id), eq(answers.correct, true)));
            expect(Object.keys(q).sort()).toEqual([
              "answers",
              "count",
              "explanation",
              "hint",
              "id",
              "lang",
              "media",
              "round",
              "text",
              "total",
              "type",
            ]);
            expect(q.explanation).toBeNull();
            expect(q.hint).toBeNull();
            expect(q.media).toBeNull();
            const raw = res.body;
            expect(raw).not.toMatch(/"correct"|is_correct|answers_correct/);
            if (row?.hint) expect(raw).not.toContain(JSON.stringify(row.hint).slice(1, -1));
            expect(raw).not.toContain(JSON.stringify(row?.explanation ?? "").slice(1, -1));
            for (const a of q.answers) expect(Object.keys(a).sort()).toEqual(["id", "text"]);
            const post = await ctx.app.inject({
              method: "POST",
              url: `${base}/${qn.id}/questions/${q.id}/answers`,
              headers: bearer(token),
              payload: right.map((a) => a.id),
            });
            expect(post.json().is_correct).toBe(true);
          }
        }
      }
    }
    expect(scanned).toBe(
      loadPackage(DEMO_CONTENT).trainings.reduce(
        (n, t) => n + t.questionnaires.reduce((m, q) => m + q.questions.length, 0),
        0,
      ),
    );
    const progress = (await get(`/api/progress/admin/users/${cast.users.employee.id}`)).json();
    expect(progress.certificate_count).toBe(progress.certificate_total - 1);
  });
});
