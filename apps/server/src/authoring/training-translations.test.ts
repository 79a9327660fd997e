import { XMLParser } from "fast-xml-parser";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureIds, HAND_RUB_QUESTION, importFixture, passQuestionnaire } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { brokenMarkup } from "./markup";
import { parseCsv, parseXliff, XLIFF_NS } from "./translation-files";

/*
 * A training's translations as a file for translators (issue 31): XLIFF 2.0 and CSV exported,
 * filled in, imported back — matched by question id and the version of the German; refusals named;
 * one transaction; a malformed file a spec §8 error that changes nothing.
 */

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let ids: FixtureIds;
let qn = 0;
let questionId = 0;
let answerIds: number[] = [];
/** A common question of the training, which an administrator may not edit. */
let commonQuestion = 0;

const GERMAN = {
  ...HAND_RUB_QUESTION,
  explanation: "<p>Mindestens <strong>30 Sekunden</strong>, bis die Hände trocken sind.</p>",
};
const TURKISH: Record<string, string> = {
  text: "Elleri dezenfektanla ne kadar süre ovalarsınız?",
  first: "30 saniye",
  second: "5 saniye",
  explanation: "<p>Eller kuruyana kadar en az <strong>30 saniye</strong>.</p>",
  hint: "Sayarak ovalayın.",
};

const files = (token: string, query: string) =>
  ctx.app.inject({
    method: "GET",
    url: `/api/authoring/trainings/${ids.training}/translations?${query}`,
    headers: bearer(token),
  });
const send = (token: string, query: string, body: string | Buffer, type: string) =>
  ctx.app.inject({
    method: "POST",
    url: `/api/authoring/trainings/${ids.training}/translations?${query}`,
    headers: { ...bearer(token), "content-type": type },
    payload: body,
  });
const stored = async (lang = "tr") =>
  (
    await ctx.app.inject({
      method: "GET",
      url: `/api/authoring/questions/${questionId}/translations`,
      headers: bearer(cast.tokens.administrator),
    })
  )
    .json()
    .translations.find((t: { lang: string }) => t.lang === lang);
const XLIFF = "application/xliff+xml";

/** The exported XLIFF with a target in every segment of the question, in `state`. */
function filled(xliff: string, targets: Record<string, string>, state = "final"): string {
  return xliff.replace(
    /<segment id="([^"]+)" state="[^"]*">\n(\s*)(<source xml:space="preserve">[\s\S]*?<\/source>)/g,
    (_m, id: string, indent: string, source: string) => {
      const key = id === `a${answerIds[0]}` ? "first" : id === `a${answerIds[1]}` ? "second" : id;
      const text = (targets[key] ?? "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      return `<segment id="${id}" state="${state}">\n${indent}${source}\n${indent}<target>${text}</target>`;
    },
  );
}

beforeAll(async () => {
  ctx = await createTestApp({ env: { CONTENT_LANGUAGES: "en,tr,pl", MULTI_LANGUAGE: "de,en" } });
  cast = await createCast(ctx);
  ids = await importFixture(ctx.deps.database.db);
  const admin = cast.tokens.administrator;
  const call = (method: "GET" | "POST", url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api${url}`, headers: bearer(admin), ...(payload ? { payload } : {}) });
  qn = (await call("POST", "/authoring/questionnaires", { training_id: ids.training, name: "Händehygiene" })).json().id;
  questionId = (await call("POST", `/authoring/questionnaires/${qn}/questions`, GERMAN)).json().question_id;
  answerIds = (await call("GET", `/authoring/questionnaires/${qn}`))
    .json()
    .questions[0].answers.map((a: { id: number }) => a.id);
  expect((await call("POST", `/authoring/questionnaires/${qn}/publish`)).statusCode).toBe(200);
  commonQuestion = (await call("GET", `/authoring/questionnaires/${ids.qn1}`)).json().questions[0].id;
  for (const earlier of [ids.qn1, ids.qn2]) await passQuestionnaire(ctx, ids, cast.tokens.employee, earlier);
});
afterAll(() => ctx.close());

describe("a training's translations as XLIFF 2.0", () => {
  it("exports the questions the caller may edit, German beside the translation, with the German's version", async () => {
    const res = await files(cast.tokens.administrator, "lang=tr&format=xliff");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/xliff+xml");
    expect(res.headers["content-disposition"]).toContain(".xlf");
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(res.body);
    expect(doc.xliff).toMatchObject({
      version: "2.0",
      srcLang: "de",
      trgLang: "tr",
      xmlns: "urn:oasis:names:tc:xliff:document:2.0",
    });
    // The administrator edits their facility's questionnaire only: its name and its question, not
    // the common ones (nor the topic's and training's names, common content).
    const [name, unit] = doc.xliff.file.unit;
    expect(doc.xliff.file.unit).toHaveLength(2);
    expect(name).toMatchObject({ id: `questionnaire${qn}`, segment: { id: "name", state: "initial" } });
    expect(name.segment.source["#text"]).toBe("Händehygiene");
    expect(unit.id).toBe(`q${questionId}`);
    expect(unit.notes.note["#text"]).toMatch(/^[\w-]{43}$/);
    expect(unit.segment.map((s: { id: string }) => s.id)).toEqual([
      "text",
      `a${answerIds[0]}`,
      `a${answerIds[1]}`,
      "explanation",
      "hint",
    ]);
    expect(unit.segment[3].source["#text"]).toBe(GERMAN.explanation);
    expect(
      unit.segment.every((s: { state: string; target?: unknown }) => s.state === "initial" && s.target === undefined),
    ).toBe(true);
    // Another facility's administrator gets none of it; an employee nothing at all.
    expect((await files(cast.tokens.administratorB, "lang=tr&format=xliff")).body).not.toContain("<unit");
    expect((await files(cast.tokens.employee, "lang=tr&format=xliff")).statusCode).toBe(403);
    // A download: the token may come in the query.
    const byQuery = await ctx.app.inject({
      method: "GET",
      url: `/api/authoring/trainings/${ids.training}/translations?lang=tr&format=xliff&token=${cast.tokens.administrator}`,
    });
    expect(byQuery.statusCode).toBe(200);
  });

  it("imports a filled file: the dry run says what it would change and writes nothing; the import writes it; again, it is unchanged", async () => {
    const admin = cast.tokens.administrator;
    const exported = (await files(admin, "lang=tr&format=xliff")).body;
    const file = filled(exported, TURKISH);
    const dry = await send(admin, "lang=tr&format=xliff&dry_run=true", file, XLIFF);
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({
      dry_run: true,
      lang: "tr",
      format: "xliff",
      changed: [{ unit: `q${questionId}`, question_id: questionId, status: "published" }],
      unchanged: 0,
      // The questionnaire's name, not translated in this file.
      empty: 1,
      refused: [],
    });
    expect(await stored()).toBeUndefined();
    const done = await send(admin, "lang=tr&format=xliff", file, XLIFF);
    expect(done.json()).toMatchObject({ dry_run: false, changed: [{ question_id: questionId, status: "published" }] });
    expect(await stored()).toMatchObject({
      status: "published",
      outdated: false,
      text: TURKISH.text,
      answers: [
        { id: answerIds[0], text: TURKISH.first },
        { id: answerIds[1], text: TURKISH.second },
      ],
      explanation: TURKISH.explanation,
      hint: TURKISH.hint,
    });
    // The learner asking for Turkish gets it.
    const asked = await ctx.app.inject({
      method: "GET",
      url: `/api/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires/${qn}/questions?lang=tr`,
      headers: bearer(cast.tokens.employee),
    });
    expect(asked.json().question).toMatchObject({ id: questionId, lang: "tr", text: TURKISH.text });
    // The export now carries the translation, and the same file again changes nothing.
    const again = (await files(admin, "lang=tr&format=xliff")).body;
    expect(again).toContain(`state="final"`);
    expect(again).toContain(`<target xml:space="preserve">${TURKISH.first}</target>`);
    expect((await send(admin, "lang=tr&format=xliff", again, XLIFF)).json()).toMatchObject({
      changed: [],
      unchanged: 1,
    });
    // A state of "translated" is a draft: learners get German again.
    const draft = filled(exported, TURKISH, "translated");
    expect((await send(admin, "lang=tr&format=xliff", draft, XLIFF)).json().changed).toEqual([
      { unit: `q${questionId}`, question_id: questionId, status: "draft" },
    ]);
    expect((await send(admin, "lang=tr&format=xliff", file, XLIFF)).json().changed).toHaveLength(1);
  });

  it("refuses each unit it cannot take, names why, and takes the rest", async () => {
    const admin = cast.tokens.administrator;
    const base = (await files(admin, "lang=en&format=xliff")).body;
    const english = { ...TURKISH, text: "How long?", first: "30 seconds", second: "5 seconds", hint: "Count." };
    const unit = filled(base, { ...english, explanation: "<p>At least <strong>30 seconds</p>" });
    const refusedOf = async (xliff: string) =>
      (await send(admin, "lang=en&format=xliff&dry_run=true", xliff, XLIFF)).json().refused;
    expect(await refusedOf(unit)).toEqual([
      expect.objectContaining({ unit: `q${questionId}`, question_id: questionId, reason: "broken-markup" }),
    ]);
    // Only some texts translated.
    expect(await refusedOf(filled(base, { text: "How long?" }))).toEqual([
      expect.objectContaining({ reason: "incomplete", detail: expect.stringContaining("explanation") }),
    ]);
    // A unit no question of the training the caller may edit; an element inside a target.
    const foreign = base.replace(`id="q${questionId}"`, `id="q${commonQuestion}"`);
    expect(await refusedOf(filled(foreign, english))).toEqual([
      expect.objectContaining({ unit: `q${commonQuestion}`, reason: "unknown-id" }),
    ]);
    const inline = filled(base, english).replace(
      "<target>How long?</target>",
      '<target>How <pc id="1">long</pc>?</target>',
    );
    expect(await refusedOf(inline)).toEqual([expect.objectContaining({ reason: "broken-markup" })]);
    // Nothing translated: left alone and counted as empty (the question and the questionnaire's name).
    expect((await send(admin, "lang=en&format=xliff", base, XLIFF)).json()).toMatchObject({
      changed: [],
      empty: 2,
      refused: [],
    });
    expect(await stored("en")).toBeUndefined();
  });

  it("refuses a unit whose German changed since the export, and learners then get German", async () => {
    const admin = cast.tokens.administrator;
    const old = filled((await files(admin, "lang=pl&format=xliff")).body, {
      text: "Jak długo?",
      first: "30 sekund",
      second: "5 sekund",
      explanation: "<p>Co najmniej 30 sekund.</p>",
      hint: "Licz.",
    });
    const saved = await ctx.app.inject({
      method: "PUT",
      url: `/api/authoring/questions/${questionId}`,
      headers: bearer(admin),
      payload: {
        ...GERMAN,
        text: "Wie lange reiben Sie die Hände mindestens ein?",
      },
    });
    expect(saved.json()).toMatchObject({ question_id: questionId });
    answerIds = (
      await ctx.app.inject({ method: "GET", url: `/api/authoring/questionnaires/${qn}`, headers: bearer(admin) })
    )
      .json()
      .questions[0].answers.map((a: { id: number }) => a.id);
    const report = (await send(admin, "lang=pl&format=xliff", old, XLIFF)).json();
    expect(report.changed).toEqual([]);
    expect(report.refused).toEqual([
      expect.objectContaining({
        unit: `q${questionId}`,
        reason: "outdated-source",
        detail: expect.stringContaining("German text changed"),
      }),
    ]);
    expect(await stored("pl")).toBeUndefined();
    // The Turkish translation is outdated now: the export offers it as a draft to revise.
    expect(await stored("tr")).toMatchObject({ outdated: true });
    const revised = (await files(admin, "lang=tr&format=xliff")).body;
    expect(revised).toContain(`<target xml:space="preserve">${TURKISH.first}</target>`);
    expect(revised).not.toContain(`state="final"`);
    // Brought back untouched, it was not revised: unchanged, still outdated (learners keep German).
    const back = (await send(admin, "lang=tr&format=xliff", revised, XLIFF)).json();
    expect(back).toMatchObject({ changed: [], unchanged: 1, refused: [] });
    expect(await stored("tr")).toMatchObject({ outdated: true, status: "published" });
  });
});

describe("a training's translations as CSV", () => {
  it("round-trips through a spreadsheet's file: BOM, semicolons, one row a text", async () => {
    const admin = cast.tokens.administrator;
    const res = await files(admin, "lang=en&format=csv");
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.body.startsWith("\uFEFF")).toBe(true);
    const rows = Papa.parse<string[]>(res.body.slice(1), { delimiter: ";", skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(["questionnaire", "question", "field", "version", "status", "de", "en"]);
    // The questionnaire's name first, then the question's texts.
    expect(rows[1]?.slice(0, 3)).toEqual(["Questionnaire: Händehygiene", `questionnaire${qn}`, "name"]);
    rows.splice(1, 1);
    expect(rows.slice(1).map((r) => r[2])).toEqual([
      "text",
      `a${answerIds[0]}`,
      `a${answerIds[1]}`,
      "explanation",
      "hint",
    ]);
    const english = ["How long do you rub your hands?", "30 seconds", "5 seconds", "<p>At least 30 seconds.</p>", ""];
    const back = Papa.unparse(
      [rows[0] ?? [], ...rows.slice(1).map((r, i) => [...r.slice(0, 4), "reviewed", r[5] ?? "", english[i] ?? ""])],
      { delimiter: ";" },
    );
    const done = await send(admin, "lang=en&format=csv", back, "text/csv");
    expect(done.json()).toMatchObject({ changed: [{ question_id: questionId, status: "reviewed" }], refused: [] });
    expect(await stored("en")).toMatchObject({ status: "reviewed", text: english[0], hint: null });
    // A comma-separated file from another spreadsheet is read alike.
    const comma = Papa.unparse(
      [rows[0] ?? [], ...rows.slice(1).map((r, i) => [...r.slice(0, 4), "published", r[5] ?? "", english[i] ?? ""])],
      { delimiter: "," },
    );
    expect((await send(admin, "lang=en&format=csv", comma, "text/csv")).json().changed).toEqual([
      { unit: `q${questionId}`, question_id: questionId, status: "published" },
    ]);
    // A status that is not one refuses the unit.
    const wrong = back.replace(/;reviewed;/g, ";fertig;");
    expect((await send(admin, "lang=en&format=csv", wrong, "text/csv")).json().refused).toEqual([
      expect.objectContaining({ reason: "invalid", detail: expect.stringContaining("fertig") }),
    ]);
  });
});

describe("a file that is not one", () => {
  it("is a spec §8 error and changes nothing", async () => {
    const admin = cast.tokens.administrator;
    const before = await stored("en");
    const good = (await files(admin, "lang=en&format=xliff")).body;
    const cases: [string, string | Buffer, string, number][] = [
      ["lang=en&format=xliff", '<xliff version="2.0"><file>', XLIFF, 400],
      ["lang=en&format=xliff", "not xml at all", XLIFF, 400],
      ["lang=en&format=xliff", good.replace('version="2.0"', 'version="1.2"'), XLIFF, 400],
      ["lang=en&format=xliff", good.replace('trgLang="en"', 'trgLang="fr"'), XLIFF, 400],
      ["lang=en&format=xliff", good.replace('srcLang="de"', 'srcLang="en"'), XLIFF, 400],
      ["lang=en&format=csv", "a;b;c\n1;2;3\n", "text/csv", 400],
      ["lang=en&format=csv", Buffer.from([0x71, 0x75, 0xe4, 0x3b, 0xff, 0xfe, 0x0a]), "text/csv", 400],
      ["lang=en&format=csv", 'question;field;version;status;en\nq1;text;x;draft;"open\n', "text/csv", 400],
      ["lang=en&format=csv", "", "text/csv", 400],
      // A document type (and its entities, external ones) is refused; shapes the XML parser refuses too.
      [
        "lang=en&format=xliff",
        good.replace("<xliff", '<!DOCTYPE xliff [<!ENTITY x SYSTEM "file:///etc/passwd">]><xliff'),
        XLIFF,
        400,
      ],
      ["lang=en&format=xliff", good.replace("</file>", "<constructor/></file>"), XLIFF, 400],
      [
        "lang=en&format=xliff",
        good.replace("</file>", `${"<group>".repeat(120)}${"</group>".repeat(120)}</file>`),
        XLIFF,
        400,
      ],
      ["lang=xx&format=csv", good, "text/csv", 400],
      ["lang=en&format=pdf", good, XLIFF, 400],
      ["lang=en&format=xliff", good, "application/pdf", 415],
    ];
    for (const [query, body, type, status] of cases) {
      const res = await send(admin, query, body, type);
      expect({ query, body: String(body).slice(0, 40), status: res.statusCode }).toEqual({
        query,
        body: String(body).slice(0, 40),
        status,
      });
      expect(res.json()).toMatchObject({ error_code: expect.any(Number), message: expect.any(String) });
    }
    // A unit twice in one file.
    const twice = good.replace("</file>", `${good.slice(good.indexOf("<unit"), good.indexOf("</unit>") + 7)}</file>`);
    expect((await send(admin, "lang=en&format=xliff", twice, XLIFF)).statusCode).toBe(400);
    expect(await stored("en")).toEqual(before);
    expect((await send(cast.tokens.employee, "lang=en&format=xliff", good, XLIFF)).statusCode).toBe(403);
    const missing = await ctx.app.inject({
      method: "POST",
      url: "/api/authoring/trainings/999999/translations?lang=en&format=xliff",
      headers: { ...bearer(admin), "content-type": XLIFF },
      payload: good,
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe("reading a translation file", () => {
  const head = `<xliff xmlns="${XLIFF_NS}" version="2.0" srcLang="de" trgLang="en"><file id="f">`;
  it("takes character references as characters, names a field given twice, and leaves units without text alone", async () => {
    const [unit] = parseXliff(
      `${head}<unit id="q5"><segment id="text"><target>a&#160;b &#x201C;c&#x201D;</target></segment><segment id="text"><target>d</target></segment></unit></file></xliff>`,
      "en",
    );
    expect(unit?.targets.get("text")).toBe("d");
    expect(unit?.duplicates).toEqual(["text"]);
    const [refs] = parseXliff(
      `${head}<unit id="q5"><segment id="text"><target>a&#160;b &#x201C;c&#x201D;</target></segment></unit></file></xliff>`,
      "en",
    );
    expect(refs?.targets.get("text")).toBe("a\u00a0b \u201Cc\u201D");
    // pt-BR is the content language "br", not "pt"; en-GB is English.
    expect(() => parseXliff(`${head.replace('"en"', '"pt-BR"')}</file></xliff>`, "pt")).toThrow(/target language/);
    expect(parseXliff(`${head.replace('"en"', '"en-GB"')}</file></xliff>`, "en")).toEqual([]);
  });

  it("reads a CSV's cells without the apostrophe the export put before a formula-like text", () => {
    const [unit] = parseCsv("question;field;version;status;en\nq5;text;'-Abc;published;'=1+1 is two\n", "en");
    expect(unit).toMatchObject({ unit: "q5", version: "-Abc", status: "published" });
    expect(unit?.targets.get("text")).toBe("=1+1 is two");
  });
});

describe("brokenMarkup", () => {
  it("finds an unclosed, a crossed and a stray tag, and lets whole markup pass", () => {
    expect(brokenMarkup("<p>Eins <strong>zwei</strong><br>drei</p>")).toBeNull();
    expect(brokenMarkup("<ul><li>a</li><li>b</li></ul><!-- x -->")).toBeNull();
    expect(brokenMarkup("<p>offen")).toContain("<p> is not closed");
    expect(brokenMarkup("<p><strong>a</p></strong>")).toContain("</p> closes <strong>");
    expect(brokenMarkup("a</p>")).toContain("closes nothing");
    expect(brokenMarkup("<p>3 < 5</p>")).toContain("starts no tag");
  });
});

describe("translated names of the topic, the training and its questionnaires", () => {
  const names = (token: string) =>
    ctx.app.inject({ method: "GET", url: `/api/authoring/trainings/${ids.training}/names`, headers: bearer(token) });
  const put = (token: string, kind: string, id: number, lang: string, payload: object) =>
    ctx.app.inject({
      method: "PUT",
      url: `/api/authoring/names/${kind}/${id}/translations/${lang}`,
      headers: bearer(token),
      payload,
    });
  const learner = async (path: string) =>
    (
      await ctx.app.inject({ method: "GET", url: `/api/progress${path}`, headers: bearer(cast.tokens.employee) })
    ).json();
  const trainingPath = () => `/topics/${ids.topic}/trainings/${ids.training}/questionnaires`;

  it("are written beside the German by those who may edit the item, and learners see the published ones in their language", async () => {
    const admin = cast.tokens.administrator;
    const superAdmin = cast.tokens.superchris;
    // The administrator reads the topic's and training's names but may translate only their questionnaire's.
    const listed = (await names(admin)).json();
    expect(listed).toMatchObject({ training_id: ids.training, content_languages: ["en", "tr", "pl"] });
    expect(
      listed.items.map((i: { kind: string; name: string; editable: boolean }) => [i.kind, i.name, i.editable]),
    ).toEqual([
      ["topic", "Hygiene", false],
      ["training", "Händehygiene", false],
      ["questionnaire", "1", false],
      ["questionnaire", "2", false],
      ["questionnaire", "Händehygiene", true],
    ]);
    expect((await names(cast.tokens.employee)).statusCode).toBe(403);
    // Refusals: common content for Super-Admins only, another facility's questionnaire does not exist,
    // not a content language, not a kind, an empty name, a status that is not one; nothing written.
    const tr = { name: "El hijyeni", status: "published" };
    expect((await put(admin, "training", ids.training, "tr", tr)).statusCode).toBe(403);
    expect((await put(cast.tokens.administratorB, "questionnaire", qn, "tr", tr)).statusCode).toBe(404);
    expect((await put(cast.tokens.employee, "questionnaire", qn, "tr", tr)).statusCode).toBe(403);
    expect((await put(admin, "questionnaire", qn, "fr", tr)).json()).toMatchObject({ error_code: 1100 });
    expect((await put(superAdmin, "certificate", 1, "tr", tr)).statusCode).toBe(400);
    expect((await put(admin, "questionnaire", qn, "tr", { ...tr, name: " " })).statusCode).toBe(400);
    expect((await put(admin, "questionnaire", qn, "tr", { ...tr, status: "final" })).statusCode).toBe(400);
    expect((await put(superAdmin, "training", 999_999, "tr", tr)).statusCode).toBe(404);
    expect(
      (await names(superAdmin)).json().items.every((i: { translations: unknown[] }) => i.translations.length === 0),
    ).toBe(true);

    const saved = await put(admin, "questionnaire", qn, "tr", { name: "El hijyeni (ev)", status: "published" });
    expect(saved.json()).toMatchObject({
      kind: "questionnaire",
      id: qn,
      name: "Händehygiene",
      translations: [{ lang: "tr", name: "El hijyeni (ev)", status: "published", outdated: false }],
    });
    expect((await put(superAdmin, "topic", ids.topic, "tr", { name: "Hijyen", status: "published" })).statusCode).toBe(
      200,
    );
    expect(
      (await put(superAdmin, "training", ids.training, "tr", { name: "El hijyeni", status: "draft" })).statusCode,
    ).toBe(200);

    // A learner who reads German sees German names.
    expect((await learner("/topics"))[0]).toMatchObject({ name: "Hygiene", name_lang: "de" });
    // In Turkish: the published names; the training's is a draft, so German.
    const me = cast.users.employee.id;
    const choose = (value: string) =>
      ctx.app.inject({
        method: "PATCH",
        url: `/api/preferences/${me}`,
        headers: bearer(cast.tokens.employee),
        payload: { property: "content_language", value },
      });
    expect((await choose("tr")).statusCode).toBe(200);
    expect((await learner("/topics"))[0]).toMatchObject({ name: "Hijyen", name_lang: "tr" });
    const topic = await learner(`/topics/${ids.topic}/trainings`);
    expect(topic.trainings.find((t: { id: number }) => t.id === ids.training)).toMatchObject({
      name: "Händehygiene",
      name_lang: "de",
    });
    expect(
      (await put(superAdmin, "training", ids.training, "tr", { name: "El hijyeni", status: "published" })).statusCode,
    ).toBe(200);
    const detail = await learner(trainingPath());
    expect(detail.training).toMatchObject({ name: "El hijyeni", name_lang: "tr" });
    expect(detail.questionnaires.map((q: { name: string; name_lang: string }) => [q.name, q.name_lang])).toEqual([
      ["1", "de"],
      ["2", "de"],
      ["El hijyeni (ev)", "tr"],
    ]);
    // A language without translations (pl): German throughout.
    expect((await choose("pl")).statusCode).toBe(200);
    expect((await learner(trainingPath())).training).toMatchObject({ name: "Händehygiene", name_lang: "de" });
    expect((await choose("tr")).statusCode).toBe(200);

    // The German name changes: the translation is outdated, learners get German again.
    const renamed = await ctx.app.inject({
      method: "PUT",
      url: `/api/authoring/topics/${ids.topic}`,
      headers: bearer(superAdmin),
      payload: { name: "Hygiene und Infektionsschutz", icon: "hygiene", color: "#0f766e" },
    });
    expect(renamed.statusCode).toBe(200);
    const topicItem = (await names(superAdmin)).json().items[0];
    expect(topicItem).toMatchObject({ kind: "topic", translations: [{ lang: "tr", outdated: true }] });
    expect((await learner("/topics"))[0]).toMatchObject({ name: "Hygiene und Infektionsschutz", name_lang: "de" });
    expect((await choose("")).statusCode).toBe(200);
  });

  it("travel in the translator's file as units of their own, refused when the German name changed since", async () => {
    const superAdmin = cast.tokens.superchris;
    const exported = (await files(superAdmin, "lang=en&format=xliff")).body;
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(exported);
    expect(doc.xliff.file.unit.slice(0, 2).map((u: { id: string }) => u.id)).toEqual([
      `topic${ids.topic}`,
      `training${ids.training}`,
    ]);
    const withName = (xliff: string, unit: string, target: string) =>
      xliff.replace(
        new RegExp(
          `(<unit id="${unit}"[\\s\\S]*?<segment id="name") state="initial">(\\s*<source[^>]*>[^<]*</source>)`,
        ),
        `$1 state="final">$2\n        <target>${target}</target>`,
      );
    const file = withName(
      withName(exported, `training${ids.training}`, "Hand hygiene"),
      `topic${ids.topic}`,
      "Hygiene",
    );
    const report = (await send(superAdmin, "lang=en&format=xliff", file, XLIFF)).json();
    expect(report.changed).toEqual([
      { unit: `topic${ids.topic}`, question_id: null, status: "published" },
      { unit: `training${ids.training}`, question_id: null, status: "published" },
    ]);
    const training = (await names(superAdmin)).json().items[1];
    expect(training.translations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ lang: "en", name: "Hand hygiene", status: "published", outdated: false }),
      ]),
    );
    // The same file again changes nothing (the two names, and the question's English from before);
    // after the training is renamed its unit is refused as outdated.
    expect((await send(superAdmin, "lang=en&format=xliff", file, XLIFF)).json()).toMatchObject({
      changed: [],
      unchanged: 3,
    });
    const rename = await ctx.app.inject({
      method: "PUT",
      url: `/api/authoring/trainings/${ids.training}`,
      headers: bearer(superAdmin),
      payload: {
        topic_id: ids.topic,
        name: "Händehygiene im Wohnbereich",
        icon: "haende",
        validity_months: 12,
        passive: false,
        points: 10,
        wiki_link: "/wiki/hygiene/haende",
      },
    });
    expect(rename.statusCode).toBe(200);
    const after = (await send(superAdmin, "lang=en&format=xliff&dry_run=true", file, XLIFF)).json();
    expect(after.refused).toEqual([
      expect.objectContaining({ unit: `training${ids.training}`, question_id: null, reason: "outdated-source" }),
    ]);
    // A unit named like a name the caller may not translate is unknown to them.
    const adminFile = withName(exported, `training${ids.training}`, "Hand hygiene");
    expect(
      (await send(cast.tokens.administrator, "lang=en&format=xliff&dry_run=true", adminFile, XLIFF)).json().refused,
    ).toEqual(
      expect.arrayContaining([expect.objectContaining({ unit: `training${ids.training}`, reason: "unknown-id" })]),
    );
  });
});
