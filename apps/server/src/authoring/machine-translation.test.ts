import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureIds, HAND_RUB_QUESTION, importFixture, passQuestionnaire } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { startTranslationPeer, type TranslationPeer } from "../../test/translation-peer.mjs";

/*
 * A machine's translation suggestions (issue 31), from a service speaking LibreTranslate's
 * protocol (here its test peer): only empty fields are filled, as status `machine`, which
 * learners never see; without a service the call answers a clear error.
 */

let peer: TranslationPeer;
let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let ids: FixtureIds;
let qn = 0;
let questionId = 0;

const call = (token: string, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const suggest = (token: string, lang = "tr") =>
  call(token, "POST", `/authoring/questions/${questionId}/translations/${lang}/suggest`);

beforeAll(async () => {
  peer = await startTranslationPeer();
  ctx = await createTestApp({ env: { CONTENT_LANGUAGES: "en,tr", MACHINE_TRANSLATION_URL: `${peer.url}/` } });
  cast = await createCast(ctx);
  ids = await importFixture(ctx.deps.database.db);
  const admin = cast.tokens.administrator;
  qn = (await call(admin, "POST", "/authoring/questionnaires", { training_id: ids.training, name: "Hände" })).json().id;
  questionId = (await call(admin, "POST", `/authoring/questionnaires/${qn}/questions`, HAND_RUB_QUESTION)).json()
    .question_id;
  expect((await call(admin, "POST", `/authoring/questionnaires/${qn}/publish`)).statusCode).toBe(200);
  for (const earlier of [ids.qn1, ids.qn2]) await passQuestionnaire(ctx, ids, cast.tokens.employee, earlier);
});
afterAll(async () => {
  await ctx.close();
  await peer.close();
});

describe("a machine's translation suggestion", () => {
  it("fills every empty field as `machine`, which learners never see", async () => {
    const res = await suggest(cast.tokens.administrator);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.filled).toEqual([
      "text",
      expect.stringMatching(/^a\d+$/),
      expect.stringMatching(/^a\d+$/),
      "explanation",
      "hint",
    ]);
    const tr = body.translations.find((t: { lang: string }) => t.lang === "tr");
    expect(tr).toMatchObject({
      status: "machine",
      outdated: false,
      text: `[tr] ${HAND_RUB_QUESTION.text}`,
      explanation: "<p>[tr] Mindestens 30 Sekunden, bis die Hände trocken sind.</p>",
      hint: "[tr] Zählen Sie mit.",
    });
    expect(tr.answers.map((a: { text: string }) => a.text)).toEqual(["[tr] 30 Sekunden", "[tr] 5 Sekunden"]);
    // Plain texts as text, the explanation as HTML; from German into Turkish.
    expect(peer.received.slice(-2).map((r) => [r.source, r.target, r.format])).toEqual([
      ["de", "tr", "text"],
      ["de", "tr", "html"],
    ]);
    const asked = await call(
      cast.tokens.employee,
      "GET",
      `/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires/${qn}/questions?lang=tr`,
    );
    expect(asked.json().question).toMatchObject({ id: questionId, lang: "de", text: HAND_RUB_QUESTION.text });
  });

  it("leaves what a person wrote and fills only what is empty; a whole translation is left as it is", async () => {
    const admin = cast.tokens.administrator;
    const listed = (await call(admin, "GET", `/authoring/questions/${questionId}/translations`)).json();
    const tr = listed.translations.find((t: { lang: string }) => t.lang === "tr");
    const person = {
      text: "Elleri ne kadar süre ovalarsınız?",
      answers: tr.answers.map((a: { id: number }, i: number) => ({ id: a.id, text: ["30 saniye", "5 saniye"][i] })),
      explanation: "<p>Eller kuruyana kadar en az 30 saniye.</p>",
      hint: null,
      status: "published",
    };
    expect((await call(admin, "PUT", `/authoring/questions/${questionId}/translations/tr`, person)).statusCode).toBe(
      200,
    );
    // Whole but for the optional hint: nothing asked, nothing written, still published.
    const before = peer.received.length;
    const whole = (await suggest(admin)).json();
    expect(whole.filled).toEqual([]);
    expect(peer.received.length).toBe(before);
    expect(whole.translations.find((t: { lang: string }) => t.lang === "tr")).toMatchObject({ status: "published" });
    // A third answer in German: only it (and the hint) are filled; the person's texts stay, and
    // the translation stays marked outdated — what the person wrote translates the earlier German.
    const german = {
      ...HAND_RUB_QUESTION,
      answers: [...HAND_RUB_QUESTION.answers, { text: "2 Minuten", correct: false }],
    };
    expect((await call(admin, "PUT", `/authoring/questions/${questionId}`, german)).json()).toMatchObject({
      question_id: questionId,
    });
    const live = (await call(admin, "GET", `/authoring/questionnaires/${qn}`)).json().questions[0].answers as {
      id: number;
      text: string;
    }[];
    const res = (await suggest(admin)).json();
    const kept = new Map(person.answers.map((a: { id: number; text: string }) => [a.id, a.text]));
    const empty = live.filter((a) => !kept.has(a.id)).map((a) => `a${a.id}`);
    expect(empty.length).toBeGreaterThan(0);
    expect(res.filled).toEqual([...empty, "hint"]);
    const after = res.translations.find((t: { lang: string }) => t.lang === "tr");
    expect(after).toMatchObject({
      status: "machine",
      outdated: true,
      text: person.text,
      explanation: person.explanation,
      hint: "[tr] Zählen Sie mit.",
    });
    expect(after.answers.find((a: { id: number }) => a.id === live[2]?.id)?.text).toBe("[tr] 2 Minuten");
  });

  it("answers 502 (1111) when the service fails, and writes nothing", async () => {
    peer.failWith = 500;
    try {
      const res = await suggest(cast.tokens.administrator, "en");
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ error_code: 1111, message: expect.stringContaining("answered 500") });
    } finally {
      peer.failWith = 0;
    }
    const listed = (
      await call(cast.tokens.administrator, "GET", `/authoring/questions/${questionId}/translations`)
    ).json();
    expect(listed.translations.map((t: { lang: string }) => t.lang)).toEqual(["tr"]);
  });

  it("keeps what the editor holds unsaved — a new translation half typed — and fills only the rest", async () => {
    const admin = cast.tokens.administrator;
    const live = (await call(admin, "GET", `/authoring/questionnaires/${qn}`)).json().questions[0].answers as {
      id: number;
    }[];
    const [first, ...rest] = live;
    const res = await call(admin, "POST", `/authoring/questions/${questionId}/translations/en/suggest`, {
      text: "How long do you rub your hands?",
      answers: [{ id: first?.id, text: "30 seconds" }, ...rest.map((a) => ({ id: a.id, text: "" }))],
      explanation: "",
      hint: "",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().filled).toEqual([...rest.map((a) => `a${a.id}`), "explanation", "hint"]);
    const en = res.json().translations.find((t: { lang: string }) => t.lang === "en");
    expect(en).toMatchObject({ status: "machine", outdated: false, text: "How long do you rub your hands?" });
    expect(en.answers.find((a: { id: number }) => a.id === first?.id)?.text).toBe("30 seconds");
    expect(en.answers.filter((a: { text: string }) => a.text.startsWith("[en] "))).toHaveLength(rest.length);
    // A draft's text too long is refused before the service is asked.
    const before = peer.received.length;
    const long = await call(admin, "POST", `/authoring/questions/${questionId}/translations/en/suggest`, {
      text: "x".repeat(5000),
    });
    expect(long.statusCode).toBe(400);
    expect(peer.received.length).toBe(before);
  });

  it("is for those who may edit the question, into a content language", async () => {
    expect((await suggest(cast.tokens.employee)).statusCode).toBe(403);
    expect((await suggest(cast.tokens.administratorB)).statusCode).toBe(404);
    expect((await suggest(cast.tokens.administrator, "pl")).statusCode).toBe(400);
    const langs = (await call(cast.tokens.employee, "GET", "/content-languages")).json();
    expect(langs).toEqual({ source: "de", languages: ["de", "en", "tr"], machine_suggestions: true });
  });
});

describe("without a machine translation service", () => {
  it("answers a clear error (409, 1110)", async () => {
    const plain = await createTestApp({ env: { CONTENT_LANGUAGES: "en,tr" } });
    try {
      const c = await createCast(plain);
      const admin = c.tokens.administrator;
      const fixture = await importFixture(plain.deps.database.db);
      const inject = (method: "POST" | "GET", url: string, payload?: object) =>
        plain.app.inject({ method, url: `/api${url}`, headers: bearer(admin), ...(payload ? { payload } : {}) });
      const q = (await inject("POST", "/authoring/questionnaires", { training_id: fixture.training, name: "H" })).json()
        .id;
      const id = (await inject("POST", `/authoring/questionnaires/${q}/questions`, HAND_RUB_QUESTION)).json()
        .question_id;
      const res = await inject("POST", `/authoring/questions/${id}/translations/tr/suggest`);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        error_code: 1110,
        message: expect.stringContaining("MACHINE_TRANSLATION_URL"),
      });
      expect((await inject("GET", "/content-languages")).json().machine_suggestions).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
