import fs from "node:fs";
import path from "node:path";
import { ErrorCode } from "@carecampus/contract";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureIds, importFixture, writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, createUser, login, type TestContext } from "../../test/helpers";
import { answers, certificates, questions, quizAttempts } from "../db/schema";
import { loadPackage } from "./package";
import { importPackage } from "./service";

/*
 * Question versions (content/versions.ts): a package re-import that changes an answered
 * question's answers writes a new version; past attempts keep naming the answers they chose,
 * counts and certificates stay, and nobody who answered is reset.
 */

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let ids: FixtureIds;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  ids = await importFixture(ctx.deps.database.db);
});
afterAll(() => ctx.close());

const base = () => `/api/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires`;
const get = (token: string, url: string) => ctx.app.inject({ method: "GET", url, headers: bearer(token) });
const answer = (token: string, qn: number, question: number, chosen: number[]) =>
  ctx.app.inject({
    method: "POST",
    url: `${base()}/${qn}/questions/${question}/answers`,
    headers: bearer(token),
    payload: chosen,
  });

async function answerIds(questionId: number, correct: boolean): Promise<number[]> {
  const rows = await ctx.deps.database.db
    .select({ id: answers.id })
    .from(answers)
    .where(and(eq(answers.questionId, questionId), eq(answers.correct, correct), eq(answers.retired, false)))
    .orderBy(asc(answers.id));
  return rows.map((r) => r.id);
}

async function next(token: string, qn: number) {
  const res = await get(token, `${base()}/${qn}/questions`);
  expect(res.statusCode).toBe(200);
  return res.json().question as { id: number; text: string } | null;
}

/** Answers the next questions until `stop` says so (or the questionnaire ends). */
async function walk(
  token: string,
  qn: number,
  choose: (q: { id: number; text: string }) => "right" | "wrong" | "stop",
) {
  for (let i = 0; i < 20; i++) {
    const q = await next(token, qn);
    if (!q) return;
    const what = choose(q);
    if (what === "stop") return;
    const chosen = await answerIds(q.id, what === "right");
    const res = await answer(token, qn, q.id, what === "right" ? chosen : chosen.slice(0, 1));
    expect(res.statusCode).toBe(200);
  }
}

async function questionnaireState(token: string, qn: number) {
  const detail = (await get(token, base())).json();
  return detail.questionnaires.find((q: { id: number }) => q.id === qn) as {
    count: number;
    total: number;
    finished: boolean;
  };
}

/** The fixture with question q1 of questionnaire 1 changed: its answers reordered and one rewritten. */
function editedFixture(version: string): string {
  const dir = writeFixture({ version });
  const file = path.join(dir, "trainings/haende.yaml");
  const text = fs.readFileSync(file, "utf8");
  const edited = text.replace(
    "          - text: 5 Sekunden\n          - text: 30 Sekunden\n            correct: true\n",
    "          - text: 30 Sekunden\n            correct: true\n          - text: 10 Sekunden\n",
  );
  expect(edited).not.toBe(text);
  fs.writeFileSync(file, edited);
  return dir;
}

describe("question versions", () => {
  it("an answered question changed by an import gets a new version; nobody is reset", async () => {
    const db = ctx.deps.database.db;
    const [q1] = await db
      .select()
      .from(questions)
      .where(and(eq(questions.questionnaireId, ids.qn1), eq(questions.key, "q1")));
    const q1v1 = q1?.id ?? 0;

    // finisher: questionnaire 1 done (no certificate yet); middle: q1 right, then stops;
    // wrong: q1 wrong, then stops; certified: the whole training, with a certificate.
    const finisher = cast.tokens.employee;
    const middleUser = await createUser(ctx, ["employee"], cast.facilityA.id);
    const wrongUser = await createUser(ctx, ["employee"], cast.facilityA.id);
    const certifiedUser = await createUser(ctx, ["employee"], cast.facilityA.id);
    const middle = await login(ctx, middleUser.login);
    const wrong = await login(ctx, wrongUser.login);
    const certified = await login(ctx, certifiedUser.login);

    await walk(finisher, ids.qn1, () => "right");
    let sawQ1 = false;
    await walk(middle, ids.qn1, (q) => {
      if (sawQ1) return "stop";
      if (q.id !== q1v1) return "stop";
      sawQ1 = true;
      return "right";
    });
    // The middle learner may have been asked another question first: then q1 comes later.
    if (!sawQ1) {
      const res = await answer(middle, ids.qn1, q1v1, await answerIds(q1v1, true));
      expect(res.statusCode).toBe(200);
    }
    const wrongChoice = (await answerIds(q1v1, false))[0] as number;
    expect((await answer(wrong, ids.qn1, q1v1, [wrongChoice])).statusCode).toBe(200);
    await walk(certified, ids.qn1, () => "right");
    await walk(certified, ids.qn2, () => "right");
    const [cert] = await db.select().from(certificates).where(eq(certificates.userId, certifiedUser.id));
    expect(cert).toBeDefined();

    const before = {
      finisher: await questionnaireState(finisher, ids.qn1),
      middle: await questionnaireState(middle, ids.qn1),
    };
    expect(before.finisher).toMatchObject({ finished: true, count: 3, total: 3 });
    expect(before.middle.count).toBe(1);
    const wrongAttempt = await db.select().from(quizAttempts).where(eq(quizAttempts.userId, wrongUser.id));

    const result = await importPackage(db, loadPackage(editedFixture("1.1.0")));
    expect(result.newVersions).toBe(1);

    // Two versions: the first superseded and kept with its answers, the second live.
    const versions = await db
      .select()
      .from(questions)
      .where(and(eq(questions.questionnaireId, ids.qn1), eq(questions.key, "q1")))
      .orderBy(asc(questions.version));
    expect(versions.map((v) => [v.version, v.retired, v.supersededAt !== null])).toEqual([
      [1, true, true],
      [2, false, false],
    ]);
    const q1v2 = versions[1]?.id ?? 0;
    // The wrong learner's attempt still names "5 Sekunden", the answer that learner chose.
    const chosen = await db
      .select({ text: answers.text, correct: answers.correct })
      .from(answers)
      .where(inArray(answers.id, wrongAttempt[0]?.answerIds ?? []));
    expect(chosen).toEqual([{ text: "5 Sekunden", correct: false }]);
    expect(
      (await db.select({ text: answers.text }).from(answers).where(eq(answers.questionId, q1v2))).map((a) => a.text),
    ).toEqual(["30 Sekunden", "10 Sekunden", "2 Minuten"]);

    // Nobody is reset: counts as before, the finisher still finished, the certificate kept.
    expect(await questionnaireState(finisher, ids.qn1)).toMatchObject({ finished: true, count: 3, total: 3 });
    expect((await questionnaireState(middle, ids.qn1)).count).toBe(1);
    const detail = (await get(certified, base())).json();
    expect(detail.training.certificate?.id).toBe(cert?.id);
    expect(detail.training.count).toBe(detail.training.total);

    // The middle learner is not asked q1 again; the wrong learner is asked its new version.
    const asked: number[] = [];
    await walk(middle, ids.qn1, (q) => {
      asked.push(q.id);
      return "right";
    });
    expect(asked).not.toContain(q1v1);
    expect(asked).not.toContain(q1v2);
    expect(await questionnaireState(middle, ids.qn1)).toMatchObject({ finished: true, count: 3 });

    const askedWrong: number[] = [];
    await walk(wrong, ids.qn1, (q) => {
      askedWrong.push(q.id);
      return "right";
    });
    expect(askedWrong).toContain(q1v2);
    expect(askedWrong).not.toContain(q1v1);
    expect(await questionnaireState(wrong, ids.qn1)).toMatchObject({ finished: true, count: 3 });

    // An answer sent for the version that was on screen before the edit: 1007, nothing recorded.
    const late = await createUser(ctx, ["employee"], cast.facilityA.id);
    const lateToken = await login(ctx, late.login);
    const res = await answer(lateToken, ids.qn1, q1v1, await answerIds(q1v1, true));
    expect(res.statusCode).toBe(404);
    expect(res.json().error_code).toBe(ErrorCode.questionNotFound);
    expect(await db.select().from(quizAttempts).where(eq(quizAttempts.userId, late.id))).toEqual([]);
  });

  // A question nobody answered is changed in place: content.test.ts ('keeps ids').
  it("a change of the hint only is made in place; a changed text of an answered question is a new version", async () => {
    const db = ctx.deps.database.db;
    const dir = editedFixture("1.2.0");
    const file = path.join(dir, "trainings/haende.yaml");
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, "utf8")
        .replace("Denken Sie an die Einwirkzeit.", "Einwirkzeit beachten.")
        .replace("text: Ist Nagellack erlaubt?", "text: Ist Nagellack im Dienst erlaubt?"),
    );
    const before = await db.select().from(questions).where(eq(questions.questionnaireId, ids.qn1));
    const result = await importPackage(db, loadPackage(dir));
    const after = await db.select().from(questions).where(eq(questions.questionnaireId, ids.qn1));
    const live = (rows: typeof before, key: string) => rows.find((r) => r.key === key && r.supersededAt === null);
    expect(live(after, "q1")?.id).toBe(live(before, "q1")?.id);
    expect(live(after, "q1")?.hint).toBe("Einwirkzeit beachten.");
    // q3 was answered (by the learners above): its text changed, so it is a new version.
    expect(result.newVersions).toBe(1);
    expect(live(after, "q3")?.version).toBe(2);
  });

  // Counted by question with the content (learning/progress.ts countCorrect): a right answer to a
  // question that is no longer live leaves the count as the question leaves the total.
  it("a question gone from the package no longer counts: its right answers leave the count with it", async () => {
    const db = ctx.deps.database.db;
    const live = async (key: string) =>
      (
        await db
          .select({ id: questions.id })
          .from(questions)
          .where(and(eq(questions.questionnaireId, ids.qn1), eq(questions.key, key), eq(questions.retired, false)))
      )[0]?.id ?? 0;
    const learner = await login(ctx, (await createUser(ctx, ["employee"], cast.facilityA.id)).login);
    for (const key of ["q2", "q3"]) {
      const id = await live(key);
      expect((await answer(learner, ids.qn1, id, await answerIds(id, true))).statusCode).toBe(200);
    }
    expect(await questionnaireState(learner, ids.qn1)).toMatchObject({ count: 2, total: 3, finished: false });

    const dir = editedFixture("1.3.0");
    const file = path.join(dir, "trainings/haende.yaml");
    const text = fs.readFileSync(file, "utf8");
    const withoutQ3 = text.replace(/ {6}- key: q3\n[\s\S]*?(?= {2}- key: "2")/, "");
    expect(withoutQ3).not.toBe(text);
    fs.writeFileSync(file, withoutQ3.replace("text: Ist Nagellack erlaubt?", "text: Ist Nagellack im Dienst erlaubt?"));
    await importPackage(db, loadPackage(dir));
    expect(await live("q3")).toBe(0);

    expect(await questionnaireState(learner, ids.qn1)).toMatchObject({ count: 1, total: 2, finished: false });
  });
});
