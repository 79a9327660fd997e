import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFixture, problemsOf, writeFixture } from "../../test/content-fixture";
import { bearer, createTestApp, createUser, login, type TestContext } from "../../test/helpers";
import { questionnaires, questions, questionTranslations, trainings } from "../db/schema";
import { loadPackage } from "./package";
import { importPackage } from "./service";

/*
 * A content package's translations (translations/<lang>/<training>.yaml, issue 31): validated
 * against the German training, imported as published translations of the German as the package
 * has it; a translation written in the app is left as it is by a later import.
 */

const TURKISH = `training: haende
questionnaires:
  - key: "1"
    questions:
      - key: q1
        text: Ellerinizi ne kadar süre dezenfekte edersiniz?
        answers:
          - 5 saniye
          - 30 saniye
          - 2 dakika
        explanation: "<p>En az <strong>30 saniye</strong>.</p><script>alert(1)</script>"
        hint: Etki süresini düşünün.
`;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { CONTENT_LANGUAGES: "en,tr" } });
});
afterAll(() => ctx.close());

describe("a content package's translations", () => {
  it("are checked against the German training they translate", () => {
    const problems = (files: Record<string, string>) => problemsOf(writeFixture({ files }));
    expect(problems({ "translations/tr/haende.yaml": TURKISH })).toEqual([]);
    expect(problems({ "translations/de/haende.yaml": TURKISH })).toEqual([
      expect.stringMatching(/^translations\/de: not a folder named by a language code other than de/),
    ]);
    // A file where a language's folder belongs is named; hidden files are passed over.
    expect(problems({ "translations/tr.yaml": TURKISH })).toEqual([
      expect.stringMatching(/^translations\/tr\.yaml: not a folder/),
    ]);
    expect(
      problems({
        "translations/.gitkeep": "",
        "translations/tr/.DS_Store": "x",
        "translations/tr/haende.yaml": TURKISH,
      }),
    ).toEqual([]);
    expect(problems({ "translations/tr/nope.yaml": TURKISH.replace("haende", "nope") })).toEqual([
      "translations/tr/nope.yaml: training: no training nope in trainings/",
    ]);
    expect(problems({ "translations/tr/haende.yaml": TURKISH.replace("          - 2 dakika\n", "") })).toEqual([
      "translations/tr/haende.yaml: questionnaires.0.questions.0.answers: 2 answers for the German's 3",
    ]);
    expect(problems({ "translations/tr/haende.yaml": TURKISH.replace("key: q1", "key: q9") })).toEqual([
      "translations/tr/haende.yaml: questionnaires.0.questions.0.key: no question q9 in questionnaire 1",
    ]);
    expect(problems({ "translations/tr/haende.yaml": `${TURKISH}        media: x\n` })[0]).toMatch(
      /translations\/tr\/haende\.yaml: questionnaires\.0\.questions\.0: .*media/,
    );
  });

  it("are imported as published translations a learner gets; one written in the app stays", async () => {
    const db = ctx.deps.database.db;
    const dir = writeFixture({ files: { "translations/tr/haende.yaml": TURKISH } });
    expect(loadPackage(dir).translations).toHaveLength(1);
    const ids = await importFixture(db, dir);
    const [q1] = await db
      .select({ id: questions.id })
      .from(questions)
      .innerJoin(questionnaires, eq(questionnaires.id, questions.questionnaireId))
      .where(and(eq(questionnaires.id, ids.qn1), eq(questions.key, "q1")));
    const id = q1?.id ?? 0;
    const superchris = await login(ctx, (await createUser(ctx, ["superchris"], null)).login);
    const listed = async () =>
      (
        await ctx.app.inject({
          method: "GET",
          url: `/api/authoring/questions/${id}/translations`,
          headers: bearer(superchris),
        })
      ).json().translations;
    expect(await listed()).toEqual([
      expect.objectContaining({
        lang: "tr",
        status: "published",
        outdated: false,
        text: "Ellerinizi ne kadar süre dezenfekte edersiniz?",
        explanation: "<p>En az <strong>30 saniye</strong>.</p>",
        hint: "Etki süresini düşünün.",
      }),
    ]);
    const [tr] = await listed();
    expect(tr.answers.map((a: { text: string }) => a.text)).toEqual(["5 saniye", "30 saniye", "2 dakika"]);
    // Written in the app, it is app content: a newer package leaves it.
    const mine = { ...tr, text: "Elleri ne kadar süre ovalarsınız?" };
    const put = await ctx.app.inject({
      method: "PUT",
      url: `/api/authoring/questions/${id}/translations/tr`,
      headers: bearer(superchris),
      payload: {
        text: mine.text,
        answers: mine.answers,
        explanation: mine.explanation,
        hint: mine.hint,
        status: "published",
      },
    });
    expect(put.statusCode).toBe(200);
    const result = await importPackage(
      db,
      loadPackage(writeFixture({ version: "1.0.1", files: { "translations/tr/haende.yaml": TURKISH } })),
    );
    expect(result).toMatchObject({ status: "imported", translations: 1 });
    const rows = await db.select().from(questionTranslations).where(eq(questionTranslations.questionId, id));
    expect(rows.map((r) => r.text)).toEqual([mine.text]);
  });

  it("bring the training's, its topic's and its questionnaires' names, published for the German as it is", async () => {
    const named = TURKISH.replace(
      "training: haende\n",
      "training: haende\nname: El hijyeni\ntopic_name: Hijyen\n",
    ).replace('  - key: "1"\n', '  - key: "2"\n    name: İkinci bölüm\n  - key: "1"\n');
    const kurs = "training: kurs\ntopic_name: Hijyen ve enfeksiyon\nname: Resüsitasyon kursu\n";
    // Two trainings of one topic may each name it, alike only.
    expect(problemsOf(writeFixture({ files: { "translations/tr/haende.yaml": named } }))).toEqual([]);
    expect(
      problemsOf(writeFixture({ files: { "translations/tr/haende.yaml": named, "translations/tr/kurs.yaml": kurs } })),
    ).toEqual([expect.stringMatching(/^translations\/tr\/kurs\.yaml: topic_name: .* differs from "Hijyen"/)]);

    const db = ctx.deps.database.db;
    const result = await importPackage(
      db,
      loadPackage(writeFixture({ version: "1.0.2", files: { "translations/tr/haende.yaml": named } })),
    );
    // The question and the three names.
    expect(result).toMatchObject({ status: "imported", translations: 4 });
    const [training] = await db.select({ id: trainings.id }).from(trainings).where(eq(trainings.key, "haende"));
    const superchris = await login(ctx, (await createUser(ctx, ["superchris"], null)).login);
    const listed = await ctx.app.inject({
      method: "GET",
      url: `/api/authoring/trainings/${training?.id}/names`,
      headers: bearer(superchris),
    });
    expect(
      listed
        .json()
        .items.map(
          (i: { kind: string; name: string; translations: { name: string; status: string; outdated: boolean }[] }) => [
            i.kind,
            i.name,
            i.translations.map((t) => `${t.name} (${t.status}${t.outdated ? ", outdated" : ""})`),
          ],
        ),
    ).toEqual([
      ["topic", "Hygiene", ["Hijyen (published)"]],
      ["training", "Händehygiene", ["El hijyeni (published)"]],
      ["questionnaire", "1", []],
      ["questionnaire", "2", ["İkinci bölüm (published)"]],
    ]);
  });
});
