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

/** A new questionnaire of the administrator's facility in the fixture's training "haende". */
async function newQuestionnaire(name: string): Promise<number> {
  const [t] = await ctx.deps.database.db.select().from(trainings).where(eq(trainings.key, "haende"));
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/authoring/questionnaires",
    headers: bearer(cast.tokens.administrator),
    payload: { training_id: t?.id, name },
  });
  return res.json().id;
}

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  await importPackage(ctx.deps.database.db, loadPackage(writeFixture()));
  qnId = await newQuestionnaire("Aus Moodle");
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

describe("a Moodle bank with embedded pictures and categories", () => {
  const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
  const GIF = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";
  // A PNG one byte over the upload limit (5 MB): refused by its size before anything reads it.
  const HUGE = Buffer.concat([Buffer.from(PNG, "base64"), Buffer.alloc(5 * 1024 * 1024)]).toString("base64");
  const file = (name: string, base64: string) => `<file name="${name}" path="/" encoding="base64">${base64}</file>`;
  const category = (name: string) =>
    `<question type="category"><category><text>$course$/top/${name}</text></category></question>`;
  const question = (name: string, text: string, feedback = "") => `<question type="multichoice">
    <name><text>${name}</text></name>
    <questiontext format="html"><text><![CDATA[${text}]]></text>${text.includes("bild.png") ? file("bild.png", PNG) : ""}${text.includes("riesig.png") ? file("riesig.png", HUGE) : ""}</questiontext>
    <generalfeedback format="html"><text><![CDATA[<p>Darum.</p>${feedback}]]></text>${feedback ? file("tier.gif", GIF) : ""}</generalfeedback>
    <single>true</single>
    <answer fraction="100" format="html"><text>Richtig</text></answer>
    <answer fraction="0" format="html"><text>Falsch</text></answer>
  </question>`;
  const bank = `<?xml version="1.0" encoding="UTF-8"?><quiz>
    ${category("Hygiene/Händehygiene")}
    ${question("Mit Bild", '<p>Was zeigt das Bild?</p><img src="@@PLUGINFILE@@/bild.png" alt="">')}
    ${question("Zu groß", '<p>Was zeigt das große Bild?</p><img src="@@PLUGINFILE@@/riesig.png">')}
    ${category("Hygiene/Flächen")}
    ${question("GIF in der Rückmeldung", "<p>Welche Fläche zuerst?</p>", '<img src="@@PLUGINFILE@@/tier.gif">')}
    ${category("Brandschutz")}
    ${question("Ohne Bild", "<p>Wohin bei Rauch?</p>")}
  </quiz>`;
  let target = 0;

  beforeAll(async () => {
    target = await newQuestionnaire("Moodle nach Kategorien");
  });
  const send = (path: string, payload: object) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/authoring/questionnaires/${target}${path}`,
      headers: bearer(cast.tokens.administrator),
      payload,
    });

  it("previews each picture as an upload would be checked: a refused one named with its reason", async () => {
    const res = await send("/import/preview", { format: "moodle-xml", text: bank });
    expect(res.statusCode).toBe(200);
    const preview = res.json();
    expect(preview.questions.map((q: { text: string }) => q.text)).toEqual([
      "Was zeigt das Bild?",
      "Welche Fläche zuerst?",
      "Wohin bei Rauch?",
    ]);
    expect(preview.questions[0].image).toEqual({ name: "bild.png", type: "image", size: 70 });
    expect(preview.questions[1].image).toBeNull();
    // The oversized picture is the question's own: the question is not imported without it.
    expect(preview.skipped).toContainEqual(
      expect.objectContaining({ name: "Zu groß", reason: "image-too-large", detail: "riesig.png" }),
    );
    // A GIF in the feedback: the question comes without it, and the preview says why.
    expect(preview.notes).toContainEqual({ code: "image-not-supported", number: 3, detail: "tier.gif" });
    expect(preview.categories).toEqual([
      { name: "Hygiene / Händehygiene", count: 1 },
      { name: "Hygiene / Flächen", count: 1 },
      { name: "Brandschutz", count: 1 },
    ]);
  });

  it("imports one questionnaire per category when asked, the picture stored as the question's image", async () => {
    const res = await send("/import", { format: "moodle-xml", text: bank, categories: "questionnaires" });
    expect(res.statusCode).toBe(200);
    const result = res.json();
    expect(result.imported).toBe(3);
    // Every question had a category: the questionnaire the import started from stays as it was.
    expect(result.questionnaire.questions).toEqual([]);
    expect(result.created.map((c: { name: string; count: number }) => [c.name, c.count])).toEqual([
      ["Hygiene / Händehygiene", 1],
      ["Hygiene / Flächen", 1],
      ["Brandschutz", 1],
    ]);
    const first = await ctx.app.inject({
      method: "GET",
      url: `/api/authoring/questionnaires/${result.created[0].id}`,
      headers: bearer(cast.tokens.administrator),
    });
    expect(first.json()).toMatchObject({ status: "draft", training_id: result.questionnaire.training_id });
    const media = first.json().questions[0].media;
    expect(media).toMatchObject({ type: "image" });
    const image = await ctx.app.inject({
      method: "GET",
      url: `/api/static/image/${media.id}?token=${cast.tokens.administrator}`,
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.rawPayload.subarray(0, 8)).toEqual(Buffer.from(PNG, "base64").subarray(0, 8));
  });

  it("flattens the categories by default", async () => {
    const res = await send("/import", { format: "moodle-xml", text: bank });
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toEqual([]);
    expect(res.json().questionnaire.questions).toHaveLength(3);
  });
});
