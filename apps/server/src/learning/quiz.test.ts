import { ErrorCode, expiryColour } from "@carecampus/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureIds, importFixture, writeFixture } from "../../test/content-fixture";
import {
  bearer,
  createAuthoredQuestion,
  createCast,
  createFacility,
  createTestApp,
  createUser,
  login,
  type TestContext,
} from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import {
  answerRequests,
  answers,
  certificates,
  questionnaires,
  questions,
  quizAttempts,
  trainings,
} from "../db/schema";
import { pruneAnswerRequests } from "./answer-keys";

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
const post = (token: string, url: string, payload: unknown) =>
  ctx.app.inject({ method: "POST", url, headers: bearer(token), payload: payload as object });

async function rightAnswers(questionId: number): Promise<number[]> {
  const rows = await ctx.deps.database.db
    .select({ id: answers.id })
    .from(answers)
    .where(and(eq(answers.questionId, questionId), eq(answers.correct, true)));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
async function wrongAnswer(questionId: number): Promise<number> {
  const [row] = await ctx.deps.database.db
    .select({ id: answers.id })
    .from(answers)
    .where(and(eq(answers.questionId, questionId), eq(answers.correct, false)));
  return row?.id ?? 0;
}

async function nextQuestion(token: string, qn: number) {
  const res = await get(token, `${base()}/${qn}/questions`);
  expect(res.statusCode).toBe(200);
  return res.json();
}
const answer = (token: string, qn: number, question: number, chosen: number[]) =>
  post(token, `${base()}/${qn}/questions/${question}/answers`, chosen);

/** Answers every open question of a questionnaire correctly; returns the last result. */
async function pass(token: string, qn: number) {
  let last: ReturnType<typeof JSON.parse> = null;
  for (let i = 0; i < 20; i++) {
    const { question } = await nextQuestion(token, qn);
    if (!question) return last;
    last = (await answer(token, qn, question.id, await rightAnswers(question.id))).json();
  }
  throw new Error("questionnaire never finished");
}

describe("learning lists", () => {
  it("lists topics, trainings (sorted by name) and questionnaires with counts", async () => {
    const topics = (await get(cast.tokens.employee, "/api/progress/topics")).json();
    expect(topics).toHaveLength(1);
    expect(topics[0]).toMatchObject({
      name: "Hygiene",
      count: 0,
      total: 4,
      certificate_count: 0,
      certificate_total: 2,
      disabled: false,
    });
    const detail = (await get(cast.tokens.employee, `/api/progress/topics/${ids.topic}/trainings`)).json();
    expect(detail.trainings.map((t: { name: string }) => t.name)).toEqual(["Händehygiene", "Reanimationskurs"]);
    expect(detail.trainings[1]).toMatchObject({ passive: true, questionnaires: 0, certificate: null });
    const qns = (await get(cast.tokens.employee, base())).json();
    expect(qns.questionnaires.map((q: { name: string }) => q.name)).toEqual(["1", "2"]);
    expect(qns.questionnaires[0]).toMatchObject({ count: 0, total: 3, disabled: false, finished: false });
    expect(qns.questionnaires[1]).toMatchObject({ disabled: true, link: null });
    expect(qns.training.wiki_link).toBe("/wiki/hygiene/haende");
  });

  it("refuses roles without trainings and unknown ids", async () => {
    for (const who of ["administrator", "supervisor", "contentmanager"] as const) {
      expect((await get(cast.tokens[who], "/api/progress/topics")).statusCode).toBe(403);
    }
    expect((await get(cast.tokens.superchris, "/api/progress/topics")).statusCode).toBe(200);
    expect(
      (await get(cast.tokens.employee, `/api/progress/topics/${ids.topic}/trainings/999999/questionnaires`)).json()
        .error_code,
    ).toBe(ErrorCode.trainingNotFound);
    expect((await get(cast.tokens.employee, `${base()}/999999/questions`)).json().error_code).toBe(
      ErrorCode.questionnaireNotFound,
    );
    expect((await get(cast.tokens.employee, "/api/progress/topics/999999/trainings")).statusCode).toBe(404);
    // The second questionnaire opens only after the first.
    expect((await get(cast.tokens.employee, `${base()}/${ids.qn2}/questions`)).statusCode).toBe(403);
  });
});

describe("quiz rounds", () => {
  it("asks each open question once per round, repeats the wrong ones, and finishes", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    const first = await nextQuestion(token, ids.qn1);
    expect(first.question.round).toBe(1);
    // The same GET gives the same question until it is answered.
    expect((await nextQuestion(token, ids.qn1)).question.id).toBe(first.question.id);

    const wrong = await answer(token, ids.qn1, first.question.id, [await wrongAnswer(first.question.id)]);
    expect(wrong.statusCode).toBe(200);
    const w = wrong.json();
    expect(w).toMatchObject({ is_correct: false, count: 0, total: 3, finished: null });
    expect(w.answers_correct).toEqual(await rightAnswers(first.question.id));
    expect(typeof w.explanation).toBe("string");

    // The rest of round 1, answered right.
    const seen = new Set([first.question.id]);
    let last = w;
    for (let i = 0; i < 2; i++) {
      const { question } = await nextQuestion(token, ids.qn1);
      expect(question.round).toBe(1);
      expect(seen.has(question.id)).toBe(false);
      seen.add(question.id);
      last = (await answer(token, ids.qn1, question.id, await rightAnswers(question.id))).json();
      expect(last.is_correct).toBe(true);
    }
    expect(last.finished).toMatchObject({ success: false, message: "quiz.finished.open", values: { open: 1 } });
    expect(last.count).toBe(2);
    expect(last.topic.count).toBe(2);

    // Round 2 asks only the one answered wrongly.
    const again = await nextQuestion(token, ids.qn1);
    expect(again.question).toMatchObject({ id: first.question.id, round: 2 });
    const done = (await answer(token, ids.qn1, again.question.id, await rightAnswers(again.question.id))).json();
    expect(done.finished).toMatchObject({ success: true, message: "quiz.finished.questionnaire" });
    expect(done.finished.link.href).toBe(`/topic/${ids.topic}/training/${ids.training}`);
    expect((await nextQuestion(token, ids.qn1)).question).toBeNull();

    // The last questionnaire issues the certificate.
    const cert = await pass(token, ids.qn2);
    expect(cert.finished).toMatchObject({ success: true, message: "quiz.finished.certificate" });
    expect(cert.finished.link.href).toMatch(/^\/api\/progress\/export\/certificate\?id=\d+$/);
    const detail = (await get(token, base())).json();
    expect(detail.training.certificate.active_working_cert).toBe(true);
    expect(detail.questionnaires.every((q: { finished: boolean }) => q.finished)).toBe(true);
    const progress = (await get(token, `/api/progress/admin/users/${u.id}`)).json();
    expect(progress).toMatchObject({
      points: 10,
      certificate_count: 1,
      certificate_total: 2,
      question_count: 4,
      question_total: 4,
    });
  });

  it("refuses answer ids of another question (1008) and records nothing", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    const { question } = await nextQuestion(token, ids.qn1);
    const [other] = await ctx.deps.database.db.select().from(questions).where(eq(questions.questionnaireId, ids.qn2));
    const foreign = await rightAnswers(other?.id ?? 0);
    const res = await answer(token, ids.qn1, question.id, foreign);
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(ErrorCode.answerNotOfQuestion);
    const mixed = await answer(token, ids.qn1, question.id, [...(await rightAnswers(question.id)), ...foreign]);
    expect(mixed.json().error_code).toBe(ErrorCode.answerNotOfQuestion);
    const rows = await ctx.deps.database.db.select().from(quizAttempts).where(eq(quizAttempts.userId, u.id));
    expect(rows).toHaveLength(0);
    expect((await answer(token, ids.qn1, 999999, [1])).json().error_code).toBe(ErrorCode.questionNotFound);
    expect((await answer(token, ids.qn1, other?.id ?? 0, foreign)).json().error_code).toBe(ErrorCode.questionNotFound);
    for (const body of [[], ["x"], {}, [0]] as unknown[]) {
      expect((await answer(token, ids.qn1, question.id, body as number[])).statusCode).toBe(400);
    }
  });

  it("records the same answer posted twice in parallel once", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    const { question } = await nextQuestion(token, ids.qn1);
    const right = await rightAnswers(question.id);
    const results = await Promise.all([
      answer(token, ids.qn1, question.id, right),
      answer(token, ids.qn1, question.id, right),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await ctx.deps.database.db.select().from(quizAttempts).where(eq(quizAttempts.userId, u.id));
    expect(rows).toHaveLength(1);
    expect(results.map((r) => r.json().count)).toEqual([1, 1]);
  });

  it("answers the same Idempotency-Key with the first answer and records it once, also sent twice at once (issue 30)", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    await pass(token, ids.qn1);
    // The training's last question: its answer issues the certificate, which a phone that lost
    // the answer must still be told when it sends again.
    const { question } = await nextQuestion(token, ids.qn2);
    const right = await rightAnswers(question.id);
    const url = `${base()}/${ids.qn2}/questions/${question.id}/answers`;
    const send = (key: string, chosen = right, who = token) =>
      ctx.app.inject({ method: "POST", url, headers: { ...bearer(who), "idempotency-key": key }, payload: chosen });
    const key = "0b7c6f1e-5d7a-4c1b-9a43-2f0d7c1e9b55";
    const twice = await Promise.all([send(key), send(key)]);
    const third = await send(key);
    for (const res of [...twice, third]) expect(res.statusCode, res.body).toBe(200);
    const first = twice[0]?.json();
    expect(first.finished).toMatchObject({ success: true, message: "quiz.finished.certificate" });
    expect(twice[1]?.json()).toEqual(first);
    expect(third.json()).toEqual(first);
    const db = ctx.deps.database.db;
    const recorded = await db
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.userId, u.id), eq(quizAttempts.questionnaireId, ids.qn2)));
    expect(recorded).toHaveLength(1);
    expect(await db.select().from(certificates).where(eq(certificates.userId, u.id))).toHaveLength(1);
    // Without the key the same answer is a repeat: recorded once, but the round's end is not told again.
    expect((await answer(token, ids.qn2, question.id, right)).json().finished).toBeNull();

    // The key with other answers is refused, and changes nothing.
    const other = await send(key, [await wrongAnswer(question.id)]);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ error_code: ErrorCode.conflict, status_code: 409 });
    // A key that is no key is a validation error.
    for (const bad of ["short", "x".repeat(129), "has space 12345", "ümlaut-12345"]) {
      const res = await send(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error_code, bad).toBe(ErrorCode.validation);
    }
    expect(
      await db
        .select()
        .from(quizAttempts)
        .where(and(eq(quizAttempts.userId, u.id), eq(quizAttempts.questionnaireId, ids.qn2))),
    ).toHaveLength(1);
    expect(await db.select().from(answerRequests).where(eq(answerRequests.userId, u.id))).toHaveLength(1);

    // Keys are the learner's own: another learner's same key is another request.
    const v = await createUser(ctx, ["employee"], cast.facilityA.id);
    const vToken = await login(ctx, v.login);
    const theirs = await ctx.app.inject({
      method: "POST",
      url: `${base()}/${ids.qn1}/questions/${(await nextQuestion(vToken, ids.qn1)).question.id}/answers`,
      headers: { ...bearer(vToken), "idempotency-key": key },
      payload: [await wrongAnswer((await nextQuestion(vToken, ids.qn1)).question.id)],
    });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json()).toMatchObject({ is_correct: false, finished: null });
  });

  it("keeps a key's answer for seven days: the answer-key job deletes older ones", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const db = ctx.deps.database.db;
    const now = new Date();
    const day = 86_400_000;
    await db.insert(answerRequests).values([
      { userId: u.id, key: "old-key-0001", request: "r", response: {}, createdAt: new Date(now.getTime() - 8 * day) },
      { userId: u.id, key: "new-key-0001", request: "r", response: {}, createdAt: new Date(now.getTime() - 6 * day) },
    ]);
    expect(await pruneAnswerRequests(db, now)).toMatchObject({ pruned: 1 });
    const left = await db
      .select({ key: answerRequests.key })
      .from(answerRequests)
      .where(eq(answerRequests.userId, u.id));
    expect(left).toEqual([{ key: "new-key-0001" }]);
  });

  it("never sends the right answers, explanation or hint with a question", async () => {
    const { question } = await nextQuestion(cast.tokens.employeeB, ids.qn1);
    expect(Object.keys(question).sort()).toEqual([
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
    expect(question.explanation).toBeNull();
    expect(question.hint).toBeNull();
    for (const a of question.answers) expect(Object.keys(a).sort()).toEqual(["id", "text"]);
  });
});

describe("certificates: renewal, history and colours", () => {
  it("reopens within 30 days of expiry, renews from the old expiry, and keeps the history", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    const start = new Date("2026-01-15T10:00:00Z");
    ctx.clock.now = start;
    try {
      await pass(token, ids.qn1);
      await pass(token, ids.qn2);
      const [first] = await ctx.deps.database.db.select().from(certificates).where(eq(certificates.userId, u.id));
      expect(first?.expiresAt.toISOString()).toBe("2027-01-15T10:00:00.000Z");

      const at = async (days: number) => {
        ctx.clock.now = new Date((first?.expiresAt.getTime() ?? 0) - days * 86_400_000);
        // Tokens are checked against the clock too: a fresh one for each moment.
        const t = await login(ctx, u.login);
        return { t, detail: (await get(t, base())).json() };
      };
      const colours: Record<number, string> = {};
      for (const days of [31, 30, 8, 7, 1, 0]) {
        const { detail } = await at(days);
        colours[days] = expiryColour(detail.training.certificate.expires_at, ctx.clock.now, ctx.deps.config.timeZone);
        expect(detail.training.renewal).toBe(days <= 30);
        expect(detail.training.certificate.active_working_cert).toBe(days > 0);
        if (days === 31) expect(detail.questionnaires[0].finished).toBe(true);
        if (days === 30) expect(detail.questionnaires[0]).toMatchObject({ count: 0, finished: false });
      }
      expect(colours).toEqual({ 31: "green", 30: "yellow", 8: "yellow", 7: "orange", 1: "orange", 0: "red" });

      // Renewed 10 days before expiry: the new certificate runs from the old expiry.
      const { t } = await at(10);
      await pass(t, ids.qn1);
      const renewed = await pass(t, ids.qn2);
      expect(renewed.finished.message).toBe("quiz.finished.certificate");
      const all = await ctx.deps.database.db.select().from(certificates).where(eq(certificates.userId, u.id));
      expect(all).toHaveLength(2);
      expect(all.map((c) => c.expiresAt.toISOString()).sort()).toEqual([
        "2027-01-15T10:00:00.000Z",
        "2028-01-15T10:00:00.000Z",
      ]);
      const progress = (await get(t, `/api/progress/admin/users/${u.id}`)).json();
      expect(progress.points).toBe(20);
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("answers a renewed certificate with the earlier ones as history, whose PDFs still download", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    ctx.clock.now = new Date("2026-03-10T09:00:00Z");
    try {
      let token = await login(ctx, u.login);
      await pass(token, ids.qn1);
      await pass(token, ids.qn2);
      const progressOf = async (t: string) => {
        const res = await get(t, `/api/progress/admin/users/${u.id}`);
        expect(res.statusCode).toBe(200);
        return res.json().training_progress.find((tp: { id: number }) => tp.id === ids.training);
      };
      const before = await progressOf(token);
      expect(before.earlier_certificates).toEqual([]);
      const older = before.certificate;

      // Within the renewal window (10 days before expiry): the questionnaires open again.
      ctx.clock.now = new Date(new Date(older.expires_at).getTime() - 10 * 86_400_000);
      token = await login(ctx, u.login);
      await pass(token, ids.qn1);
      await pass(token, ids.qn2);
      const after = await progressOf(token);
      expect(after.certificate.id).not.toBe(older.id);
      expect(after.certificate.expires_at).toBe("2028-03-10T09:00:00.000Z");
      expect(after.earlier_certificates).toEqual([
        {
          id: older.id,
          acquired_at: "2026-03-10T09:00:00.000Z",
          expires_at: "2027-03-10T09:00:00.000Z",
          active_working_cert: true,
        },
      ]);
      // The staff who see the user see the same history.
      const admin = await login(ctx, cast.users.administrator.login);
      expect((await progressOf(admin)).earlier_certificates.map((c: { id: number }) => c.id)).toEqual([older.id]);

      // The earlier PDF downloads as the current one does, for its owner and for that staff.
      for (const t of [token, admin]) {
        const pdf = await get(t, `/api/progress/export/certificate?id=${older.id}`);
        expect(pdf.statusCode).toBe(200);
        expect(pdf.headers["content-type"]).toBe("application/pdf");
      }
      const outsider = await login(ctx, cast.users.administratorB.login);
      expect((await get(outsider, `/api/progress/export/certificate?id=${older.id}`)).statusCode).toBe(404);
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("renews from today once the certificate has expired", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    ctx.clock.now = new Date("2026-02-01T08:00:00Z");
    try {
      let token = await login(ctx, u.login);
      await pass(token, ids.qn1);
      await pass(token, ids.qn2);
      ctx.clock.now = new Date("2027-03-01T08:00:00Z");
      token = await login(ctx, u.login);
      const detail = (await get(token, base())).json();
      expect(detail.training.certificate.active_working_cert).toBe(false);
      await pass(token, ids.qn1);
      await pass(token, ids.qn2);
      const all = await ctx.deps.database.db.select().from(certificates).where(eq(certificates.userId, u.id));
      expect(all.map((c) => c.expiresAt.toISOString()).sort()).toEqual([
        "2027-02-01T08:00:00.000Z",
        "2028-03-01T08:00:00.000Z",
      ]);
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("keeps progress and certificates across a content re-import", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    await pass(token, ids.qn1);
    await pass(token, ids.qn2);
    await importPackage(ctx.deps.database.db, loadPackage(writeFixture({ version: "2.0.0", v2: true })));
    const detail = (await get(token, base())).json();
    expect(detail.training.certificate).not.toBeNull();
    expect(detail.questionnaires[0]).toMatchObject({ total: 3, finished: true });
  });
});

describe("POST /api/help", () => {
  it("records a help request for a question, and refuses unknown ones", async () => {
    const [q] = await ctx.deps.database.db.select().from(questions).limit(1);
    const ok = await post(cast.tokens.employee, "/api/help", { question_id: q?.id });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().id).toBeGreaterThan(0);
    expect((await post(cast.tokens.employee, "/api/help", { question_id: 999999 })).json().error_code).toBe(
      ErrorCode.questionNotFound,
    );
    expect((await post(cast.tokens.employee, "/api/help", {})).statusCode).toBe(400);
    expect((await post(cast.tokens.administrator, "/api/help", { question_id: q?.id })).statusCode).toBe(403);
  });
});

describe("practice of a finished questionnaire (allow-make-questionnaires-again)", () => {
  it("is refused unless the setting is on", async () => {
    const res = await get(cast.tokens.employee, `${base()}/${ids.qn1}/questions?practice=true`);
    expect(res.statusCode).toBe(403);
  });

  it("repeats a finished questionnaire without touching counts or certificates", async () => {
    const again = await createTestApp({ env: { ALLOW_MAKE_QUESTIONNAIRES_AGAIN: "true" } });
    try {
      await importPackage(again.deps.database.db, loadPackage(writeFixture()));
      const u = await createUser(again, ["employee"], null);
      const token = await login(again, u.login);
      const [t] = await again.deps.database.db.select().from(trainings).where(eq(trainings.key, "haende"));
      const qns = await again.deps.database.db
        .select()
        .from(questionnaires)
        .where(eq(questionnaires.trainingId, t?.id ?? 0));
      const qn1 = qns.find((q) => q.key === "1")?.id ?? 0;
      const url = `/api/progress/topics/${t?.topicId}/trainings/${t?.id}/questionnaires`;
      const call = (method: "GET" | "POST", path: string, payload?: unknown) =>
        again.app.inject({
          method,
          url: `${url}${path}`,
          headers: bearer(token),
          ...(payload ? { payload: payload as object } : {}),
        });
      const right = async (questionId: number) =>
        (
          await again.deps.database.db
            .select({ id: answers.id })
            .from(answers)
            .where(and(eq(answers.questionId, questionId), eq(answers.correct, true)))
        ).map((a) => a.id);
      // Not finished yet: no practice.
      expect((await call("GET", `/${qn1}/questions?practice=true`)).statusCode).toBe(403);
      for (let i = 0; i < 10; i++) {
        const q = (await call("GET", `/${qn1}/questions`)).json().question;
        if (!q) break;
        await call("POST", `/${qn1}/questions/${q.id}/answers`, await right(q.id));
      }
      const list = (await call("GET", "")).json();
      expect(list.questionnaires[0]).toMatchObject({ finished: true, editable: true });

      const practice = (await call("GET", `/${qn1}/questions?practice=true`)).json();
      expect(practice.question).not.toBeNull();
      expect(practice.count).toBe(0);
      const res = (
        await call("POST", `/${qn1}/questions/${practice.question.id}/answers?practice=true`, [999999])
      ).json();
      expect(res.error_code).toBe(ErrorCode.answerNotOfQuestion);
      const wrong = (
        await again.deps.database.db
          .select({ id: answers.id })
          .from(answers)
          .where(and(eq(answers.questionId, practice.question.id), eq(answers.correct, false)))
      )[0]?.id;
      const r = (await call("POST", `/${qn1}/questions/${practice.question.id}/answers?practice=true`, [wrong])).json();
      expect(r.is_correct).toBe(false);
      // The real counts are untouched.
      const after = (await call("GET", "")).json();
      expect(after.questionnaires[0]).toMatchObject({ count: 3, total: 3, finished: true });
      expect((await call("GET", `/${qn1}/questions`)).json().question).toBeNull();
    } finally {
      await again.close();
    }
  });
});

describe("questions the learner cannot be asked (issue 27)", () => {
  it("an answer to another facility's own question or to a draft is 404 before anything else, even with answer ids that do not exist", async () => {
    const facilityC = await createFacility(ctx);
    const adminC = await login(ctx, (await createUser(ctx, ["administrator"], facilityC.id)).login);
    const employeeC = await login(ctx, (await createUser(ctx, ["employee"], facilityC.id)).login);
    const foreign = await createAuthoredQuestion(ctx, adminC, ids.training, { publish: true });
    const draft = await createAuthoredQuestion(ctx, cast.tokens.administrator, ids.training, { publish: false });
    const learner = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, learner.login);
    for (const { questionnaireId, questionId } of [foreign, draft]) {
      for (const chosen of [[999999], await rightAnswers(questionId), [await wrongAnswer(questionId)]]) {
        const res = await answer(token, questionnaireId, questionId, chosen);
        expect(res.statusCode, `question ${questionId}, answers ${chosen}: ${res.body}`).toBe(404);
        expect(res.json()).toEqual({
          error_code: ErrorCode.questionNotFound,
          message: expect.any(String),
          status_code: 404,
        });
      }
    }
    // Exactly like a question that does not exist.
    expect((await answer(token, foreign.questionnaireId, foreign.questionId, [999999])).json()).toEqual(
      (await answer(token, foreign.questionnaireId, 999999, [999999])).json(),
    );
    const rows = await ctx.deps.database.db.select().from(quizAttempts).where(eq(quizAttempts.userId, learner.id));
    expect(rows).toEqual([]);

    // The facility's own learners can be asked it: for them an answer id not of the question is 1008.
    const bad = await answer(employeeC, foreign.questionnaireId, foreign.questionId, [999999]);
    expect(bad.json().error_code).toBe(ErrorCode.answerNotOfQuestion);
  });
});
