import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { questions, trainings } from "../db/schema";

/* Importing question banks of other LMSs: a preview that writes nothing, then the import. */

const FIXTURES = path.join(import.meta.dirname, "question-bank", "fixtures");
const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file), "utf8");

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let qnId = 0;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  const db = ctx.deps.database.db;
  await importPackage(db, loadPackage(writeFixture()));
  const [t] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/authoring/questionnaires",
    headers: bearer(cast.tokens.administrator),
    payload: { training_id: t?.id, name: "Aus Moodle" },
  });
  qnId = res.json().id;
});
afterAll(() => ctx.close());

const post = (token: string, url: string, payload: object) =>
  ctx.app.inject({
    method: "POST",
    url: `/api/authoring/questionnaires/${qnId}${url}`,
    headers: bearer(token),
    payload,
  });
const count = async () =>
  (await ctx.deps.database.db.select().from(questions).where(eq(questions.questionnaireId, qnId))).length;

describe("question bank import", () => {
  it.each([
    ["moodle-xml", "hygiene-brandschutz.moodle.xml"],
    ["gift", "hygiene-brandschutz.gift.txt"],
  ] as const)("%s: the preview lists what will be imported and what cannot, writing nothing", async (format, file) => {
    const res = await post(cast.tokens.administrator, "/import/preview", { format, text: read(file) });
    expect(res.statusCode).toBe(200);
    const preview = res.json();
    expect(preview.questions.length).toBeGreaterThan(2);
    for (const q of preview.questions) {
      expect(["single", "multiple"]).toContain(q.type);
      expect(q.explanation).not.toMatch(/<script|on[a-z]+=/i);
    }
    // Unsupported types are named (essay, matching, numerical … in Moodle; the essay in GIFT).
    const reasons = preview.skipped.map((s: { reason: string; source_type: string }) => `${s.reason}:${s.source_type}`);
    expect(reasons.some((r: string) => r.startsWith("unsupported-type:"))).toBe(true);
    if (format === "moodle-xml") {
      const types = preview.skipped.map((s: { source_type: string }) => s.source_type);
      for (const t of ["essay", "matching", "numerical"]) expect(types).toContain(t);
    }
    expect(await count()).toBe(0);
  });

  it("imports on confirmation, all at once; others may not", async () => {
    const body = { format: "gift", text: read("hygiene-brandschutz.gift.txt") };
    expect((await post(cast.tokens.supervisor, "/import/preview", body)).statusCode).toBe(403);
    expect((await post(cast.tokens.administratorB, "/import/preview", body)).statusCode).toBe(404);
    expect((await post(cast.tokens.employee, "/import", body)).statusCode).toBe(403);
    const preview = (await post(cast.tokens.administrator, "/import/preview", body)).json();
    const res = await post(cast.tokens.administrator, "/import", body);
    expect(res.statusCode).toBe(200);
    expect(res.json().imported).toBe(preview.questions.length);
    expect(res.json().questionnaire.questions.map((q: { text: string }) => q.text)).toEqual(
      preview.questions.map((q: { text: string }) => q.text),
    );
    expect(await count()).toBe(preview.questions.length);
  });

  it("refuses a file that cannot be read, clearly, changing nothing", async () => {
    const before = await count();
    const res = await post(cast.tokens.administrator, "/import/preview", {
      format: "moodle-xml",
      text: read("malformed.moodle.xml"),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBeTruthy();
    const xxe = await post(cast.tokens.administrator, "/import", {
      format: "moodle-xml",
      text: read("external-entity.moodle.xml"),
    });
    expect([200, 400]).toContain(xxe.statusCode);
    expect(xxe.body).not.toMatch(/root:x:0:0/);
    if (xxe.statusCode === 400) expect(await count()).toBe(before);
    expect((await post(cast.tokens.administrator, "/import/preview", { format: "qti", text: "x" })).statusCode).toBe(
      400,
    );
  });
});
