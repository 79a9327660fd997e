import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureIds, HAND_RUB_QUESTION, importFixture, passQuestionnaire } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, createUser, login, type TestContext } from "../../test/helpers";

/*
 * A question in the learner's language (issue 31): translations beside the German original, shown
 * only when published and current for the whole question, else the whole question in German.
 * Scoring is by answer id in every language.
 */

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let ids: FixtureIds;
let qn = 0;
let questionId = 0;
let answerIds: number[] = [];

type Method = "GET" | "POST" | "PUT" | "PATCH";
const call = (token: string, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const learning = () => `/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires/${qn}/questions`;

const GERMAN = HAND_RUB_QUESTION;
const translation = (lang: "en" | "tr" | "pl", status = "published") => {
  const t = {
    en: ["How long do you rub your hands with disinfectant?", "30 seconds", "5 seconds", "At least 30 seconds."],
    tr: ["Elleri dezenfektanla ne kadar süre ovalarsınız?", "30 saniye", "5 saniye", "En az 30 saniye."],
    pl: ["Jak długo wciera się środek dezynfekujący?", "30 sekund", "5 sekund", "Co najmniej 30 sekund."],
  }[lang];
  return {
    text: t[0],
    answers: [
      { id: answerIds[0], text: t[1] },
      { id: answerIds[1], text: t[2] },
    ],
    explanation: `<p>${t[3]}</p>`,
    hint: null,
    status,
  };
};

beforeAll(async () => {
  ctx = await createTestApp({ env: { CONTENT_LANGUAGES: "en,tr,pl", MULTI_LANGUAGE: "de,en" } });
  cast = await createCast(ctx);
  ids = await importFixture(ctx.deps.database.db);
  const admin = cast.tokens.administrator;
  qn = (
    await call(admin, "POST", "/authoring/questionnaires", { training_id: ids.training, name: "Händehygiene" })
  ).json().id;
  const saved = (await call(admin, "POST", `/authoring/questionnaires/${qn}/questions`, GERMAN)).json();
  questionId = saved.question_id;
  const detail = (await call(admin, "GET", `/authoring/questionnaires/${qn}`)).json();
  answerIds = detail.questions[0].answers.map((a: { id: number }) => a.id);
  expect((await call(admin, "POST", `/authoring/questionnaires/${qn}/publish`)).statusCode).toBe(200);
  // Questionnaires are learnt in order: the training's first two before this one.
  for (const earlier of [ids.qn1, ids.qn2]) await passQuestionnaire(ctx, ids, cast.tokens.employee, earlier);
});
afterAll(() => ctx.close());

describe("question translations", () => {
  it("are written by those who may edit the question, into the content languages, for every answer", async () => {
    const admin = cast.tokens.administrator;
    const put = (token: string, lang: string, body: unknown) =>
      call(token, "PUT", `/authoring/questions/${questionId}/translations/${lang}`, body);
    expect((await put(cast.tokens.employee, "en", translation("en"))).statusCode).toBe(403);
    expect((await put(cast.tokens.administratorB, "en", translation("en"))).statusCode).toBe(404);
    // Not a content language of this installation, not a language code, an answer missing or foreign.
    expect((await put(admin, "fr", translation("en"))).json()).toMatchObject({ error_code: 1100, status_code: 400 });
    expect((await put(admin, "e1", translation("en"))).statusCode).toBe(400);
    const one = { ...translation("en"), answers: [translation("en").answers[0], { id: 999_999, text: "x" }] };
    expect((await put(admin, "en", one)).json()).toMatchObject({ error_code: 1100 });
    expect((await put(admin, "en", { ...translation("en"), status: "final" })).statusCode).toBe(400);
    expect((await call(admin, "GET", `/authoring/questions/${questionId}/translations`)).json().translations).toEqual(
      [],
    );

    for (const lang of ["en", "tr"] as const) expect((await put(admin, lang, translation(lang))).statusCode).toBe(200);
    const res = await put(admin, "pl", translation("pl", "draft"));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ question_id: questionId, content_languages: ["en", "tr", "pl"] });
    expect(
      res
        .json()
        .translations.map((t: { lang: string; status: string; outdated: boolean }) => [t.lang, t.status, t.outdated]),
    ).toEqual([
      ["en", "published", false],
      ["pl", "draft", false],
      ["tr", "published", false],
    ]);
  });

  it("a learner gets the question in a published language, or the whole question in German", async () => {
    const asked = async (lang?: string) =>
      (await call(cast.tokens.employee, "GET", `${learning()}${lang ? `?lang=${lang}` : ""}`)).json().question;
    const en = await asked("en");
    expect(en).toMatchObject({ id: questionId, lang: "en", text: translation("en").text });
    expect(en.answers.map((a: { text: string }) => a.text).sort()).toEqual(["30 seconds", "5 seconds"]);
    expect(await asked("tr")).toMatchObject({ lang: "tr", text: translation("tr").text });
    // A draft is never shown; nor a language outside CONTENT_LANGUAGES; "de" asks for the original.
    for (const lang of ["pl", "ar", "de", undefined]) {
      const q = await asked(lang);
      expect(q, String(lang)).toMatchObject({ lang: "de", text: GERMAN.text });
      expect(q.answers.map((a: { text: string }) => a.text).sort()).toEqual(["30 Sekunden", "5 Sekunden"]);
    }
    expect((await call(cast.tokens.employee, "GET", `${learning()}?lang=t%C3%BCr`)).statusCode).toBe(400);
  });

  it("a changed German text outdates its translations: learners get German until they are brought up to date", async () => {
    const admin = cast.tokens.administrator;
    const changed = { ...GERMAN, explanation: "<p>Mindestens 30 Sekunden lang, bis alles trocken ist.</p>" };
    expect((await call(admin, "PUT", `/authoring/questions/${questionId}`, changed)).statusCode).toBe(200);
    const listed = (await call(admin, "GET", `/authoring/questions/${questionId}/translations`)).json();
    expect(listed.translations.map((t: { outdated: boolean }) => t.outdated)).toEqual([true, true, true]);
    const en = (await call(cast.tokens.employee, "GET", `${learning()}?lang=en`)).json().question;
    expect(en).toMatchObject({ lang: "de", text: GERMAN.text });
    // Saved again for the German as it is now: current, and shown.
    await call(admin, "PUT", `/authoring/questions/${questionId}/translations/en`, translation("en"));
    expect((await call(cast.tokens.employee, "GET", `${learning()}?lang=en`)).json().question.lang).toBe("en");
  });

  it("the same answer scores the same in every language; the explanation comes in the question's language", async () => {
    const right = [answerIds[0]];
    const en = await call(cast.tokens.employee, "POST", `${learning()}/${questionId}/answers?lang=en`, right);
    expect(en.json()).toMatchObject({ is_correct: true, lang: "en", explanation: "<p>At least 30 seconds.</p>" });
    // Turkish is outdated since the German changed: the explanation comes in German.
    const second = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, second.login);
    for (const earlier of [ids.qn1, ids.qn2]) await passQuestionnaire(ctx, ids, token, earlier);
    const tr = await call(token, "POST", `${learning()}/${questionId}/answers?lang=tr`, right);
    expect(tr.json()).toMatchObject({ is_correct: true, lang: "de" });
    const wrong = await call(token, "POST", `${learning()}/${questionId}/answers?lang=en`, [answerIds[1]]);
    expect(wrong.statusCode).toBe(200);
  });

  it("a learner chooses the language trainings come in, also one the interface does not speak", async () => {
    const me = cast.users.employee.id;
    const patch = (value: string) =>
      call(cast.tokens.employee, "PATCH", `/preferences/${me}`, { property: "content_language", value });
    const languages = await call(cast.tokens.employee, "GET", "/content-languages");
    expect(languages.json()).toEqual({ source: "de", languages: ["de", "en", "tr", "pl"], machine_suggestions: false });
    expect((await patch("tr")).json()).toMatchObject({ content_language: "tr", language: "de" });
    const user = await call(cast.tokens.employee, "GET", `/auth/users/${me}`);
    expect(user.json().content_language).toBe("tr");
    // Not a language trainings come in here, or not a language code: refused, nothing changed.
    expect((await patch("fr")).json()).toMatchObject({ error_code: 1100, status_code: 400 });
    expect((await patch("x1")).statusCode).toBe(400);
    expect((await call(cast.tokens.employee, "GET", `/auth/users/${me}`)).json().content_language).toBe("tr");
    expect((await patch("de")).json().content_language).toBe("de");
    expect((await patch("")).json().content_language).toBeNull();
  });
});
