import {
  ErrorCode,
  HELP_BADGE_THRESHOLDS,
  type HelpRequestDetail,
  type HelpRequestSummary,
  type MyHelpRequest,
} from "@carecampus/contract";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
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
  answers,
  helpRequests,
  mailOutbox,
  notifications,
  preferences,
  questionnaires,
  questions,
  trainings,
} from "../db/schema";
import { HELP_REQUESTS_PER_HOUR } from "./service";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
/** The fixture's questions: q1 (single, with image), q2 (multiple), q3, and q4 (questionnaire 2). */
let q: { q1: number; q2: number; q3: number; q4: number; topic: number; training: number; qn1: number };
/** A second learner of facility A. */
let employee2: { id: number; token: string };

const inject = (method: "GET" | "POST" | "PUT" | "DELETE", token: string, url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const ask = (token: string, questionId: number) => inject("POST", token, "/api/help", { question_id: questionId });
const list = async (token: string, query = ""): Promise<HelpRequestSummary[]> => {
  const res = await inject("GET", token, `/api/help${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const counts = (rows: HelpRequestSummary[]) => Object.fromEntries(rows.map((r) => [r.question_id, r.count]));

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  const db = ctx.deps.database.db;
  await importPackage(db, loadPackage(writeFixture()));
  const [t] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
  const qns = await db
    .select()
    .from(questionnaires)
    .where(eq(questionnaires.trainingId, t?.id ?? 0))
    .orderBy(asc(questionnaires.position));
  const rows = await db
    .select({ id: questions.id, key: questions.key, qn: questions.questionnaireId })
    .from(questions)
    .orderBy(asc(questions.id));
  const find = (qn: number | undefined, key: string) => rows.find((r) => r.qn === qn && r.key === key)?.id ?? 0;
  q = {
    q1: find(qns[0]?.id, "q1"),
    q2: find(qns[0]?.id, "q2"),
    q3: find(qns[0]?.id, "q3"),
    q4: find(qns[1]?.id, "q1"),
    topic: t?.topicId ?? 0,
    training: t?.id ?? 0,
    qn1: qns[0]?.id ?? 0,
  };
  const u = await createUser(ctx, ["employee"], cast.facilityA.id, { email: "lernende@example.org" });
  await db
    .insert(preferences)
    .values({ userId: u.id, language: "en" })
    .onConflictDoUpdate({
      target: preferences.userId,
      set: { language: "en" },
    });
  employee2 = { id: u.id, token: await login(ctx, u.login) };

  // Facility A: both learners ask about q1, one about q2. Facility B: its learner about q1.
  for (const [token, question] of [
    [cast.tokens.employee, q.q1],
    [employee2.token, q.q1],
    [cast.tokens.employee, q.q2],
    [cast.tokens.employeeB, q.q1],
  ] as const) {
    expect((await ask(token, question)).statusCode).toBe(200);
  }
});
afterAll(() => ctx.close());

describe("POST /api/help", () => {
  it("keeps one open request per learner and question: asking again answers with the same one", async () => {
    const first = await ask(cast.tokens.employee, q.q3);
    const again = await ask(cast.tokens.employee, q.q3);
    expect(again.json().id).toBe(first.json().id);
    const open = await ctx.deps.database.db
      .select()
      .from(helpRequests)
      .where(and(eq(helpRequests.questionId, q.q3), isNull(helpRequests.handledAt)));
    expect(open).toHaveLength(1);
    await ctx.deps.database.db.delete(helpRequests).where(eq(helpRequests.questionId, q.q3));
  });

  it.each([
    [[[["70"]]]],
    [true],
    [{ question_id: "1; drop table users" }],
    [{ question_id: 1, extra: 1 }],
    // An id is a number as sent: no coercion of arrays, booleans or strings into one.
    [{ question_id: [[["70"]]] }],
    [{ question_id: true }],
    [{ question_id: "70" }],
  ])("refuses a body its schema does not allow (%j) with 400", async (payload) => {
    const res = await inject("POST", cast.tokens.employee, "/api/help", payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().status_code).toBe(400);
  });
});

describe("POST /api/help limit", () => {
  it(`takes ${HELP_REQUESTS_PER_HOUR} requests an hour from a learner, then 429 with Retry-After until the hour is over`, async () => {
    const learner = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, learner.login);
    const other = await login(ctx, (await createUser(ctx, ["employee"], cast.facilityA.id)).login);
    try {
      for (let i = 0; i < HELP_REQUESTS_PER_HOUR; i++) expect((await ask(token, q.q4)).statusCode).toBe(200);
      const limited = await ask(token, q.q4);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error_code: ErrorCode.rateLimited, status_code: 429 });
      const retryAfter = Number(limited.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      // Per learner: a colleague still asks.
      expect((await ask(other, q.q4)).statusCode).toBe(200);
      ctx.clock.now = new Date(Date.now() + retryAfter * 1000 + 1000);
      expect((await ask(await login(ctx, learner.login), q.q4)).statusCode).toBe(200);
    } finally {
      ctx.clock.now = new Date();
      await ctx.deps.database.db.delete(helpRequests).where(eq(helpRequests.questionId, q.q4));
    }
  });
});

describe("GET /api/help", () => {
  it("aggregates the open requests per question within the caller's facility", async () => {
    const rows = await list(cast.tokens.administrator);
    expect(counts(rows)).toEqual({ [q.q1]: 2, [q.q2]: 1 });
    expect(rows[0]).toMatchObject({
      question_id: q.q1,
      question_text: "Wie lange desinfizieren Sie die Hände?",
      count: 2,
      color: "yellow",
      topic: "Hygiene",
      training: "Händehygiene",
      icon: "haende",
      needs_fix: false,
    });
    expect(counts(await list(cast.tokens.supervisor))).toEqual({ [q.q1]: 2, [q.q2]: 1 });
    expect(counts(await list(cast.tokens.administratorB))).toEqual({ [q.q1]: 1 });
  });

  it("shows Super-Admins and superusers every facility, narrowed by ?facility=", async () => {
    for (const who of ["contentmanager", "superchris"] as const) {
      expect(counts(await list(cast.tokens[who]))).toEqual({ [q.q1]: 3, [q.q2]: 1 });
      expect(counts(await list(cast.tokens[who], `?facility=${cast.facilityB.id}`))).toEqual({ [q.q1]: 1 });
    }
  });

  it("answers a facility outside the caller's scope like an unknown one (1003), and refuses employees", async () => {
    const other = await inject("GET", cast.tokens.administrator, `/api/help?facility=${cast.facilityB.id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().error_code).toBe(ErrorCode.facilityNotFound);
    expect(counts(await list(cast.tokens.administrator, `?facility=${cast.facilityA.id}`))).toEqual({
      [q.q1]: 2,
      [q.q2]: 1,
    });
    const unknown = await inject("GET", cast.tokens.contentmanager, "/api/help?facility=999999");
    expect(unknown.json().error_code).toBe(ErrorCode.facilityNotFound);
    const employee = await inject("GET", cast.tokens.employee, "/api/help");
    expect(employee.statusCode).toBe(403);
    expect((await inject("GET", cast.tokens.employee, `/api/help/${q.q1}`)).statusCode).toBe(403);
    expect((await inject("GET", "", "/api/help")).statusCode).toBe(401);
  });

  it("colours the badge by the number of learners: yellow, orange from 3, red from 6", async () => {
    const facility = cast.facilityA.id;
    const asked: number[] = [];
    for (let i = 0; i < HELP_BADGE_THRESHOLDS.red; i++) {
      const u = await createUser(ctx, ["employee"], facility);
      asked.push(u.id);
      expect((await ask(await login(ctx, u.login), q.q4)).statusCode).toBe(200);
      const row = (await list(cast.tokens.administrator)).find((r) => r.question_id === q.q4);
      const expected =
        i + 1 >= HELP_BADGE_THRESHOLDS.red ? "red" : i + 1 >= HELP_BADGE_THRESHOLDS.orange ? "orange" : "yellow";
      expect(row?.color, `${i + 1} learners`).toBe(expected);
    }
    await ctx.deps.database.db.delete(helpRequests).where(eq(helpRequests.questionId, q.q4));
  });
});

describe("GET /api/help/{id}", () => {
  it("shows the question as the learner saw it, with the right answers, the explanation and who asked", async () => {
    const res = await inject("GET", cast.tokens.supervisor, `/api/help/${q.q1}`);
    expect(res.statusCode, res.body).toBe(200);
    const detail: HelpRequestDetail = res.json();
    const answerRows = await ctx.deps.database.db
      .select()
      .from(answers)
      .where(eq(answers.questionId, q.q1))
      .orderBy(asc(answers.position));
    expect(detail).toMatchObject({
      id: q.q1,
      question_id: q.q1,
      count: 2,
      color: "yellow",
      question_text: "Wie lange desinfizieren Sie die Hände?",
      type: "single",
      icon: "haende",
      topic: { id: q.topic, name: "Hygiene" },
      training: { id: q.training, name: "Händehygiene" },
      questionnaire: { id: q.qn1, name: "1" },
      hint: "Denken Sie an die Einwirkzeit.",
      needs_fix: false,
      replies: [],
    });
    expect(detail.answers).toEqual(answerRows.map((a) => ({ id: a.id, text: a.text, value: a.correct })));
    expect(detail.answers.filter((a) => a.value).map((a) => a.text)).toEqual(["30 Sekunden"]);
    expect(detail.explanation).toContain("30 Sekunden");
    expect(detail.explanation).not.toContain("<script");
    expect(detail.media?.type).toBe("image");
    expect(detail.learners.map((l) => l.id).sort()).toEqual([cast.users.employee.id, employee2.id].sort());
  });

  it("says whether the caller may fix the question in authoring: common content for content editors, a facility's own for its administrators", async () => {
    const editable = async (who: keyof typeof cast.tokens) =>
      ((await inject("GET", cast.tokens[who], `/api/help/${q.q1}`)).json() as HelpRequestDetail).editable;
    expect(await editable("supervisor")).toBe(false);
    expect(await editable("administrator")).toBe(false);
    expect(await editable("contentmanager")).toBe(true);
    expect(await editable("superchris")).toBe(true);
    // The same question in a questionnaire of facility A's own.
    const db = ctx.deps.database.db;
    await db.update(questionnaires).set({ facilityId: cast.facilityA.id }).where(eq(questionnaires.id, q.qn1));
    try {
      expect(await editable("administrator")).toBe(true);
      expect(await editable("supervisor")).toBe(false);
      // Content managers edit in every facility (spec §6); the other facility's administrator sees no request here.
      expect(await editable("contentmanager")).toBe(true);
    } finally {
      await db.update(questionnaires).set({ facilityId: null }).where(eq(questionnaires.id, q.qn1));
    }
  });

  it("answers 1004 for an unknown question and for one nobody in the caller's scope asked about", async () => {
    for (const [who, id] of [
      ["administrator", 999999],
      ["administratorB", q.q2],
      ["contentmanager", q.q3],
    ] as const) {
      const res = await inject("GET", cast.tokens[who], `/api/help/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error_code).toBe(ErrorCode.helpRequestNotFound);
    }
  });
});

describe("handling and replying", () => {
  it("DELETE marks the facility's open requests handled, keeps them with who and when, and leaves others open", async () => {
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 1000);
    ctx.clock.now = at;
    try {
      const res = await inject("DELETE", cast.tokens.administrator, `/api/help/${q.q2}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ handled: 1 });
    } finally {
      ctx.clock.now = new Date();
    }
    expect(counts(await list(cast.tokens.administrator))).toEqual({ [q.q1]: 2 });
    const [row] = await ctx.deps.database.db.select().from(helpRequests).where(eq(helpRequests.questionId, q.q2));
    expect(row).toMatchObject({ handledBy: cast.users.administrator.id, replyId: null });
    expect(row?.handledAt?.toISOString()).toBe(at.toISOString());
    // Still there to look at, with nobody waiting.
    const detail = await inject("GET", cast.tokens.administrator, `/api/help/${q.q2}`);
    expect(detail.json()).toMatchObject({ count: 0, learners: [] });
    const again = await inject("DELETE", cast.tokens.administrator, `/api/help/${q.q2}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error_code).toBe(ErrorCode.helpRequestNotFound);
  });

  it("refuses employees, another facility's request (1004) and an empty reply, changing nothing", async () => {
    expect((await inject("DELETE", cast.tokens.employee, `/api/help/${q.q1}`)).statusCode).toBe(403);
    const elsewhere = await inject("POST", cast.tokens.administratorB, `/api/help/${q.q2}/reply`, { text: "Hallo" });
    expect(elsewhere.json().error_code).toBe(ErrorCode.helpRequestNotFound);
    const empty = await inject("POST", cast.tokens.supervisor, `/api/help/${q.q1}/reply`, { text: "   " });
    expect(empty.statusCode).toBe(400);
    const tooLong = await inject("POST", cast.tokens.supervisor, `/api/help/${q.q1}/reply`, { text: "x".repeat(2001) });
    expect(tooLong.statusCode).toBe(400);
    expect(counts(await list(cast.tokens.contentmanager))).toEqual({ [q.q1]: 3 });
  });

  it("a reply reaches exactly the learners who asked in scope, as a notification and a mail in their language", async () => {
    const db = ctx.deps.database.db;
    const text = "30 Sekunden – die Einwirkzeit steht auf der Flasche.";
    const res = await inject("POST", cast.tokens.supervisor, `/api/help/${q.q1}/reply`, { text });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ handled: 2 });

    const notes = await db.select().from(notifications).where(eq(notifications.type, "HELP_REQUEST_REPLY"));
    expect(notes.map((n) => n.userId).sort()).toEqual([cast.users.employee.id, employee2.id].sort());
    expect(notes[0]?.customMessage).toMatchObject({
      key: "notifications.helpReply",
      values: {
        reply: text,
        question: "Wie lange desinfizieren Sie die Hände?",
        topicId: String(q.topic),
        trainingId: String(q.training),
        questionId: String(q.q1),
      },
    });
    // Facility B's learner is still waiting for their own facility.
    expect(counts(await list(cast.tokens.administratorB))).toEqual({ [q.q1]: 1 });
    expect(await list(cast.tokens.administrator)).toEqual([]);

    const mails = await db.select().from(mailOutbox);
    const mine = mails.filter((m) => m.recipients.includes("lernende@example.org"));
    expect(mine).toHaveLength(1);
    expect(mine[0]?.subject).toContain("an answer to your question");
    expect(mine[0]?.text).toContain(text);

    // The learner's notification list, and the reply beside the question in the quiz.
    const theirs = await inject("GET", employee2.token, "/api/notifications");
    expect(theirs.json().map((n: { Type: string }) => n.Type)).toContain("HELP_REQUEST_REPLY");
    // A round asks each question once: answer until q1 comes.
    const quiz = `/api/progress/topics/${q.topic}/trainings/${q.training}/questionnaires/${q.qn1}/questions`;
    let seen: { open: boolean; replies: { text: string }[] } | undefined;
    for (let i = 0; i < 3 && !seen; i++) {
      const question = (await inject("GET", employee2.token, quiz)).json().question;
      const [first] = await db.select().from(answers).where(eq(answers.questionId, question.id));
      const answered = await inject("POST", employee2.token, `${quiz}/${question.id}/answers`, [first?.id]);
      expect(answered.statusCode).toBe(200);
      if (question.id === q.q1) seen = answered.json().help;
      else expect(answered.json().help).toEqual({ open: false, replies: [] });
    }
    expect(seen?.open).toBe(false);
    expect(seen?.replies).toEqual([expect.objectContaining({ text, by: expect.stringContaining("Test") })]);

    // The learner's own questions keep it, beside the question, after the notification is gone.
    const own = await inject("GET", employee2.token, "/api/help/mine");
    expect(own.statusCode, own.body).toBe(200);
    const asked = own.json() as MyHelpRequest[];
    expect(asked.find((r) => r.question_id === q.q1)).toMatchObject({
      question_text: "Wie lange desinfizieren Sie die Hände?",
      training_id: q.training,
      topic_id: q.topic,
      reply: { text, by: expect.stringContaining("Test") },
    });
    expect(asked.find((r) => r.question_id === q.q1)?.handled_at).not.toBeNull();
    // Only their own: the other learner's list has their own requests and no one else's.
    const others = (await inject("GET", cast.tokens.employee, "/api/help/mine")).json() as MyHelpRequest[];
    expect(others.map((r) => r.id)).not.toContain(asked.find((r) => r.question_id === q.q1)?.id);
    // Staff have no questions of their own to list.
    expect((await inject("GET", cast.tokens.administrator, "/api/help/mine")).statusCode).toBe(403);

    // The detail keeps the reply for the facility.
    const detail = (await inject("GET", cast.tokens.administrator, `/api/help/${q.q1}`)).json();
    expect(detail.replies).toEqual([expect.objectContaining({ text, learners: 2 })]);
    expect((await inject("GET", cast.tokens.administratorB, `/api/help/${q.q1}`)).json().replies).toEqual([]);
  });
});

describe("content needs fixing", () => {
  it("a Super-Admin lists a question for content work and takes it off again; others are refused", async () => {
    const put = (token: string, body: object) => inject("PUT", token, `/api/help/${q.q1}/content-fix`, body);
    expect((await put(cast.tokens.administrator, { needs_fix: true })).statusCode).toBe(403);
    expect((await inject("GET", cast.tokens.administrator, "/api/help/content-fixes")).statusCode).toBe(403);
    const res = await put(cast.tokens.contentmanager, { needs_fix: true, note: "Antwort 2 ist missverständlich" });
    expect(res.json()).toEqual({ needs_fix: true });
    const fixes = (await inject("GET", cast.tokens.contentmanager, "/api/help/content-fixes")).json();
    expect(fixes).toEqual([
      expect.objectContaining({ question_id: q.q1, note: "Antwort 2 ist missverständlich", requests: 3 }),
    ]);
    expect((await list(cast.tokens.contentmanager)).find((r) => r.question_id === q.q1)?.needs_fix).toBe(true);
    expect(
      (await inject("PUT", cast.tokens.contentmanager, "/api/help/999999/content-fix", { needs_fix: true })).json()
        .error_code,
    ).toBe(ErrorCode.questionNotFound);
    expect((await put(cast.tokens.contentmanager, { needs_fix: false })).json()).toEqual({ needs_fix: false });
    expect((await inject("GET", cast.tokens.contentmanager, "/api/help/content-fixes")).json()).toEqual([]);
  });
});

describe("questions outside what the learner can be asked (issue 27)", () => {
  /** Facility C's own published question, facility A's own draft and a common draft. */
  let foreign: number;
  let draft: number;
  let commonDraft: number;
  let facilityC: { id: number };
  let adminC: string;
  let employeeC: string;

  beforeAll(async () => {
    facilityC = await createFacility(ctx);
    adminC = await login(ctx, (await createUser(ctx, ["administrator"], facilityC.id)).login);
    employeeC = await login(ctx, (await createUser(ctx, ["employee"], facilityC.id)).login);
    const text = "Welcher Code öffnet unser Medikamentenlager?";
    foreign = (await createAuthoredQuestion(ctx, adminC, q.training, { publish: true, text })).questionId;
    draft = (await createAuthoredQuestion(ctx, cast.tokens.administrator, q.training, { publish: false })).questionId;
    commonDraft = (await createAuthoredQuestion(ctx, cast.tokens.contentmanager, q.training, { publish: false }))
      .questionId;
  });

  const requestsAbout = (ids: number[]) =>
    ctx.deps.database.db.select().from(helpRequests).where(inArray(helpRequests.questionId, ids));

  it("POST /help refuses another facility's own question and unpublished drafts like an unknown question (404)", async () => {
    try {
      for (const id of [foreign, draft, commonDraft, 999999]) {
        const res = await ask(cast.tokens.employee, id);
        expect(res.statusCode, `question ${id}`).toBe(404);
        expect(res.json()).toEqual({
          error_code: ErrorCode.questionNotFound,
          message: expect.any(String),
          status_code: 404,
        });
      }
      expect(await requestsAbout([foreign, draft, commonDraft])).toEqual([]);
    } finally {
      await ctx.deps.database.db
        .delete(helpRequests)
        .where(inArray(helpRequests.questionId, [foreign, draft, commonDraft]));
    }
  });

  it("a learner asks about their facility's own published question, and only that facility's staff read it", async () => {
    const res = await ask(employeeC, foreign);
    expect(res.statusCode, res.body).toBe(200);
    try {
      const detail = await inject("GET", adminC, `/api/help/${foreign}`);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json()).toMatchObject({ question_id: foreign, count: 1, questionnaire: { name: "Hausintern" } });
      expect((await list(adminC)).map((r) => r.question_id)).toEqual([foreign]);
      const elsewhere = await inject("GET", cast.tokens.administrator, `/api/help/${foreign}`);
      expect(elsewhere.json()).toMatchObject({ error_code: ErrorCode.helpRequestNotFound, status_code: 404 });
    } finally {
      await ctx.deps.database.db.delete(helpRequests).where(eq(helpRequests.questionId, foreign));
    }
  });

  it("staff never see a question outside their scope, even when one of their learners' requests names it", async () => {
    // A request filed before POST /help checked what the learner can be asked.
    const db = ctx.deps.database.db;
    await db
      .insert(helpRequests)
      .values({ userId: cast.users.employee.id, questionId: foreign, facilityId: cast.facilityA.id });
    try {
      for (const who of ["administrator", "supervisor"] as const) {
        const token = cast.tokens[who];
        const detail = await inject("GET", token, `/api/help/${foreign}`);
        expect(detail.statusCode, `${who}: ${detail.body}`).toBe(404);
        expect(detail.json()).toEqual({
          error_code: ErrorCode.helpRequestNotFound,
          message: expect.any(String),
          status_code: 404,
        });
        expect(detail.body).not.toContain("Medikamentenlager");
        const rows = await list(token);
        expect(rows.map((r) => r.question_id)).not.toContain(foreign);
        expect(JSON.stringify(rows)).not.toContain("Medikamentenlager");
      }
      const reply = await inject("POST", cast.tokens.administrator, `/api/help/${foreign}/reply`, { text: "1234" });
      expect(reply.json().error_code).toBe(ErrorCode.helpRequestNotFound);
      const handle = await inject("DELETE", cast.tokens.administrator, `/api/help/${foreign}`);
      expect(handle.json().error_code).toBe(ErrorCode.helpRequestNotFound);
      expect((await requestsAbout([foreign]))[0]?.handledAt).toBeNull();
      // Super-Admins see every facility's content, this request too.
      expect((await inject("GET", cast.tokens.contentmanager, `/api/help/${foreign}`)).statusCode).toBe(200);
      expect((await list(cast.tokens.contentmanager)).map((r) => r.question_id)).toContain(foreign);
    } finally {
      await db.delete(helpRequests).where(eq(helpRequests.questionId, foreign));
    }
  });
});
