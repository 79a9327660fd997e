import { type AdminUserList, ErrorCode, type ListedUser } from "@carecampus/contract";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import {
  bearer,
  createCast,
  createFacility,
  createTestApp,
  createUser,
  login,
  PASSWORD,
  type TestContext,
  type TestUser,
} from "../../test/helpers";
import { verifyAuditChain } from "../audit/record";
import { forgotPassword } from "../auth/service";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import {
  auditLog,
  calendarFeeds,
  certificates,
  helpRequests,
  notifications,
  questionnaires,
  questions,
  quizAttempts,
  trainings,
  users,
  wikiConfirmations,
} from "../db/schema";
import { runExpiryJob } from "../notifications/expiry-job";

/*
 * Leavers are archived, not erased (issue 28): DELETE and the import's deleteNotIncludedUsers
 * keep the training record, end the membership (no login, no session, out of every active list,
 * count and licence limit), and a restore brings everything back.
 */

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let ids: { topic: number; active: number; passive: number; passiveTopic: number; question: number; page: number };
type Who = keyof Awaited<ReturnType<typeof createCast>>["tokens"];
const DAY = 86_400_000;

const call = (token: string, method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api/${url}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const as = (who: Who, method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) =>
  call(cast.tokens[who], method, url, payload);

const db = () => ctx.deps.database.db;
const countOf = async (table: typeof certificates | typeof quizAttempts | typeof wikiConfirmations, userId: number) => {
  const [row] = await db().select({ n: sql<number>`count(*)::int` }).from(table).where(eq(table.userId, userId));
  return Number(row?.n ?? 0);
};
const auditOf = (kind: string, subjectId?: number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.kind, kind), subjectId === undefined ? undefined : eq(auditLog.subjectId, subjectId)));
const listIds = async (who: Who, query = "") =>
  ((await as(who, "GET", `auth/admin/users${query}`)).json() as AdminUserList).users.map((u) => u.id);
const former = async (who: Who) => (await as(who, "GET", "auth/admin/users?former=true")).json() as AdminUserList;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  await importPackage(db(), loadPackage(writeFixture()));
  const [a] = await db().select().from(trainings).where(eq(trainings.key, "haende"));
  const [p] = await db().select().from(trainings).where(eq(trainings.key, "kurs"));
  const [q] = await db()
    .select({ id: questions.id })
    .from(questions)
    .innerJoin(questionnaires, eq(questionnaires.id, questions.questionnaireId))
    .where(eq(questionnaires.trainingId, a?.id ?? 0))
    .limit(1);
  // A handbook page that asks the facility's staff for a read confirmation.
  expect((await as("contentmanager", "POST", "wiki/topics", { key: "qm", title: "QM" })).statusCode).toBe(200);
  const page = await as("contentmanager", "POST", "wiki/pages", {
    topic: "qm",
    slug: "hygiene",
    title: "Hygieneplan",
    markdown: "Hände waschen.\n",
    requires_confirmation: true,
    summary: "Anfang",
  });
  expect(page.statusCode, page.body).toBe(200);
  const released = await as("contentmanager", "POST", `wiki/pages/${page.json().id}/release`, {
    version: page.json().version,
  });
  expect(released.statusCode, released.body).toBe(200);
  ids = {
    topic: a?.topicId ?? 0,
    active: a?.id ?? 0,
    passive: p?.id ?? 0,
    passiveTopic: p?.topicId ?? 0,
    question: q?.id ?? 0,
    page: page.json().id,
  };
});
afterAll(() => ctx.close());

/** A learner of facility A with a record: a certificate, an answer, a read confirmation, an open help request. */
async function learnerWithRecord(facilityId = cast.facilityA.id): Promise<TestUser & { token: string }> {
  const learner = await createUser(ctx, ["employee"], facilityId);
  const token = await login(ctx, learner.login);
  expect((await call(token, "POST", `wiki/pages/${ids.page}/confirm`, { revision: 1 })).statusCode).toBe(200);
  const marked = await as("superchris", "POST", `progress/admin/users/${learner.id}/passivetraining`, {
    topicID: ids.passiveTopic,
    trainingID: ids.passive,
  });
  expect(marked.statusCode, marked.body).toBe(200);
  const [questionnaire] = await db()
    .select({ id: questions.questionnaireId })
    .from(questions)
    .where(eq(questions.id, ids.question));
  await db()
    .insert(quizAttempts)
    .values({
      userId: learner.id,
      questionnaireId: questionnaire?.id ?? 0,
      questionId: ids.question,
      cycle: 1,
      round: 1,
      correct: true,
      answerIds: [],
    });
  await db().insert(helpRequests).values({ userId: learner.id, questionId: ids.question, facilityId });
  await db().insert(calendarFeeds).values({ userId: learner.id, secretHash: crypto.randomUUID() });
  return { ...learner, token };
}

const record = async (id: number) => ({
  certificates: await countOf(certificates, id),
  attempts: await countOf(quizAttempts, id),
  confirmations: await countOf(wikiConfirmations, id),
});

/** Where a current member shows: the user list, the overview, the wiki confirmations, the help requests, the calendar proposal. */
async function presence(id: number) {
  const overview = await as("administrator", "GET", `progress/admin/topics/${ids.passiveTopic}`);
  const confirmations = await as("administrator", "GET", `wiki/pages/${ids.page}/confirmations`);
  const help = await as("administrator", "GET", "help");
  const proposal = await as(
    "administrator",
    "GET",
    `calendar/proposal?facility=${cast.facilityA.id}&training=${ids.passive}&start=2030-01-01`,
  );
  expect(proposal.statusCode, proposal.body).toBe(200);
  const asked = (help.json() as { question_id: number; count: number }[]).find((h) => h.question_id === ids.question);
  return {
    list: (await listIds("administrator")).includes(id),
    overview: (overview.json().users as { id: number }[]).some((u) => u.id === id),
    confirmations: (confirmations.json().rows as { user_id: number }[]).some((r) => r.user_id === id),
    proposal: (proposal.json() as { id: number }[]).some((p) => p.id === id),
    helpCount: asked?.count ?? 0,
  };
}

describe("DELETE /api/auth/admin/users/{id} archives", () => {
  it("keeps the record, ends login and sessions, leaves every list, and writes one user.archived", async () => {
    const learner = await learnerWithRecord();
    const kept = await record(learner.id);
    expect(kept).toEqual({ certificates: 1, attempts: 1, confirmations: 1 });
    const before = await presence(learner.id);
    expect(before).toMatchObject({ list: true, overview: true, confirmations: true, proposal: true });

    const res = await as("administrator", "DELETE", `auth/admin/users/${learner.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    // The record stays, the row stays.
    expect(await record(learner.id)).toEqual(kept);
    const [row] = await db().select().from(users).where(eq(users.id, learner.id));
    expect(row?.archivedAt?.getTime()).toBe(ctx.clock.now.getTime());
    expect(row?.archivedBy).toBe(cast.users.administrator.id);
    expect(await db().select().from(calendarFeeds).where(eq(calendarFeeds.userId, learner.id))).toEqual([]);

    // No login, answered exactly like an unknown login; the old token is refused.
    const refused = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { login: learner.login, password: PASSWORD },
    });
    const unknown = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { login: "nobody.here", password: PASSWORD },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(unknown.json());
    expect(refused.json().error_code).toBe(ErrorCode.invalidCredentials);
    expect((await call(learner.token, "GET", `auth/users/${learner.id}`)).statusCode).toBe(401);
    expect((await call(learner.token, "POST", "auth/refresh")).statusCode).toBe(401);
    // Forgot password: like an unknown login, nobody is informed.
    expect(await forgotPassword({ db: db(), now: () => ctx.clock.now }, learner.login)).toBe("unknown");

    // Out of every active list and count.
    const after = await presence(learner.id);
    expect(after).toEqual({
      list: false,
      overview: false,
      confirmations: false,
      proposal: false,
      helpCount: before.helpCount - 1,
    });
    expect((await as("administrator", "GET", `auth/admin/users/${learner.id}`)).statusCode).toBe(404);
    // Archived once: a second delete finds nobody.
    expect((await as("administrator", "DELETE", `auth/admin/users/${learner.id}`)).statusCode).toBe(404);

    const entries = await auditOf("user.archived", learner.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: cast.users.administrator.id,
      facilityId: cast.facilityA.id,
      data: { via: "delete" },
      personal: { subject: expect.stringContaining("Test") },
    });
    expect(JSON.stringify(entries[0]?.data)).not.toContain(learner.login);
    expect((await verifyAuditChain(db())).intact).toBe(true);
  });

  it("sends no expiry reminder to a former employee", async () => {
    const leaver = await createUser(ctx, ["employee"], cast.facilityA.id);
    const stayer = await createUser(ctx, ["employee"], cast.facilityA.id);
    const now = ctx.clock.now.getTime();
    for (const userId of [leaver.id, stayer.id]) {
      await db()
        .insert(certificates)
        .values({
          userId,
          trainingId: ids.active,
          acquiredAt: new Date(now - 300 * DAY),
          expiresAt: new Date(now + 7 * DAY),
          points: 0,
          verificationCode: crypto.randomUUID(),
        });
    }
    expect((await as("administrator", "DELETE", `auth/admin/users/${leaver.id}`)).statusCode).toBe(200);
    await runExpiryJob(ctx.deps, ctx.clock.now);
    const noticed = async (userId: number) =>
      (await db().select().from(notifications).where(eq(notifications.userId, userId))).length;
    expect(await noticed(stayer.id)).toBe(1);
    expect(await noticed(leaver.id)).toBe(0);
  });

  it("writes nothing when refused", async () => {
    const entries = (await db().select().from(auditLog)).length;
    expect((await as("administrator", "DELETE", `auth/admin/users/${cast.users.administrator.id}`)).statusCode).toBe(
      403,
    );
    expect((await as("administratorB", "DELETE", `auth/admin/users/${cast.users.employee.id}`)).statusCode).toBe(404);
    expect((await db().select().from(auditLog)).length).toBe(entries);
    expect((await listIds("administrator")).includes(cast.users.employee.id)).toBe(true);
  });
});

describe("former employees and restore", () => {
  let leaver: TestUser & { token: string };

  beforeAll(async () => {
    leaver = await learnerWithRecord();
    expect((await as("administrator", "DELETE", `auth/admin/users/${leaver.id}`)).statusCode).toBe(200);
  });

  it("lists former employees with the day they left, in scope: superusers and Super-Admins all, administrators their facility", async () => {
    const mine = await former("administrator");
    const entry = mine.users.find((u) => u.id === leaver.id) as ListedUser;
    expect(entry).toMatchObject({ login: leaver.login, left_at: ctx.clock.now.toISOString() });
    expect(mine.users.every((u) => u.facility?.id === cast.facilityA.id && u.left_at)).toBe(true);
    expect(mine.total).toBe(mine.users.length);
    for (const who of ["superchris", "contentmanager"] as const) {
      expect((await former(who)).users.map((u) => u.id)).toContain(leaver.id);
    }
    expect((await former("administratorB")).users.map((u) => u.id)).not.toContain(leaver.id);
    // The current list never holds them; the former list never a current member.
    expect(mine.users.map((u) => u.id)).not.toContain(cast.users.employee.id);
    const supervisor = await as("supervisor", "GET", "auth/admin/users?former=true");
    expect(supervisor.statusCode).toBe(403);
    expect(supervisor.json().error_code).toBe(ErrorCode.forbidden);
    expect((await as("employee", "GET", "auth/admin/users?former=true")).json().error_code).toBe(
      ErrorCode.notAllowedToSeeEmployees,
    );
    expect((await as("administrator", "GET", "auth/admin/users?former=maybe")).statusCode).toBe(400);
  });

  it("shows staff a former employee's certificates and lets them download one", async () => {
    const progress = await as("administrator", "GET", `progress/admin/users/${leaver.id}`);
    expect(progress.statusCode, progress.body).toBe(200);
    const held = (progress.json().training_progress as { id: number; certificate: { id: number } | null }[]).find(
      (t) => t.id === ids.passive,
    );
    expect(held?.certificate).not.toBeNull();
    const pdf = await ctx.app.inject({
      url: `/api/progress/export/certificate?id=${held?.certificate?.id}&token=${cast.tokens.administrator}`,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toContain("application/pdf");
    expect((await as("administratorB", "GET", `progress/admin/users/${leaver.id}`)).statusCode).toBe(404);
  });

  it("refuses restore to roles without the right, another facility's administrator and a current member", async () => {
    const entries = (await db().select().from(auditLog)).length;
    for (const [who, status, code] of [
      ["supervisor", 403, ErrorCode.forbidden],
      ["employee", 403, ErrorCode.forbidden],
      ["administratorB", 404, ErrorCode.userNotFound],
    ] as const) {
      const res = await as(who, "POST", `auth/admin/users/${leaver.id}/restore`);
      expect(res.statusCode, who).toBe(status);
      expect(res.json().error_code, who).toBe(code);
    }
    const current = await as("administrator", "POST", `auth/admin/users/${cast.users.employee.id}/restore`);
    expect(current.statusCode).toBe(404);
    expect(current.json().error_code).toBe(ErrorCode.userNotFound);
    expect((await as("administrator", "POST", "auth/admin/users/999999/restore")).statusCode).toBe(404);
    expect((await db().select().from(auditLog)).length).toBe(entries);
  });

  it("brings everything back: same login and password, the record, the lists; old sessions stay ended", async () => {
    const kept = await record(leaver.id);
    const res = await as("administrator", "POST", `auth/admin/users/${leaver.id}/restore`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: leaver.id, login: leaver.login, roles: ["employee"] });
    expect(res.json().facility.id).toBe(cast.facilityA.id);
    expect(await record(leaver.id)).toEqual(kept);
    expect(await presence(leaver.id)).toMatchObject({
      list: true,
      overview: true,
      confirmations: true,
      proposal: true,
    });
    expect((await former("administrator")).users.map((u) => u.id)).not.toContain(leaver.id);
    // The token from before the archive stays refused; the old password logs in again.
    expect((await call(leaver.token, "GET", `auth/users/${leaver.id}`)).statusCode).toBe(401);
    const token = await login(ctx, leaver.login);
    expect((await call(token, "GET", `auth/users/${leaver.id}`)).statusCode).toBe(200);
    const entries = await auditOf("user.restored", leaver.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: cast.users.administrator.id, facilityId: cast.facilityA.id });
    expect((await as("administrator", "POST", `auth/admin/users/${leaver.id}/restore`)).statusCode).toBe(404);
    expect((await verifyAuditChain(db())).intact).toBe(true);
  });
});

describe("the import's deleteNotIncludedUsers archives", () => {
  it("names whom it would archive, archives them in its transaction with the counts, and keeps their record", async () => {
    const facility = await createFacility(ctx);
    const stay = await createUser(ctx, ["employee"], facility.id);
    const leaving = [await learnerWithRecord(facility.id), await learnerWithRecord(facility.id)];
    const kept = await Promise.all(leaving.map((u) => record(u.id)));
    const file = [
      {
        surname: "Bleibt",
        name: "Test",
        login: stay.login,
        facility: facility.name,
        activities: [],
        qualifications: [],
        password: "",
      },
    ];
    const importing = (query: string) =>
      ctx.app.inject({
        method: "POST",
        url: `/api/auth/admin/users?deleteNotIncludedUsers=true${query}`,
        headers: bearer(cast.tokens.superchris),
        payload: file,
      });
    const dry = await importing("&dryRun=true");
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().deleted).toBe(2);
    expect((dry.json().deleted_users as { id: number }[]).map((u) => u.id).sort()).toEqual(
      leaving.map((u) => u.id).sort(),
    );
    expect(await auditOf("user.archived", leaving[0]?.id)).toHaveLength(0);

    const res = await importing("");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ updated: 1, deleted: 2 });
    for (const [i, u] of leaving.entries()) {
      expect(await record(u.id)).toEqual(kept[i]);
      const entries = await auditOf("user.archived", u.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]?.data).toEqual({ via: "import" });
      const refused = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { login: u.login, password: PASSWORD },
      });
      expect(refused.statusCode).toBe(401);
    }
    const [imported] = (await auditOf("users.imported")).slice(-1);
    expect(imported?.data).toEqual({ created: 0, updated: 1, unchanged: 0, archived: 2 });
    expect(imported?.actorId).toBe(cast.users.superchris.id);
    // In one transaction with the import: the archive entries come right before the import's.
    const archivedIds = (await auditOf("user.archived")).slice(-2).map((e) => e.id);
    expect(imported?.id).toBe(Math.max(...archivedIds) + 1);

    // A second run finds nobody left to archive, and the file cannot update a former employee.
    expect((await importing("")).json()).toMatchObject({ deleted: 0 });
    const back = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/admin/users",
      headers: bearer(cast.tokens.superchris),
      payload: [{ ...file[0], login: leaving[0]?.login, password: "Neu-Pass-1!" }],
    });
    expect(back.statusCode).toBe(400);
    expect(back.json().problems).toEqual([{ row: 0, field: "login", code: "loginInUse", value: leaving[0]?.login }]);
  });
});

describe("MAX_USERS counts current members only", () => {
  it("frees a licence on archive, and a restore beyond the limit answers 1012 like a creation", async () => {
    const limited = await createTestApp({ env: { MAX_USERS: "8" } });
    try {
      const c = await createCast(limited); // 7 users
      const create = (login: string) =>
        limited.app.inject({
          method: "POST",
          url: "/api/auth/admin/users",
          headers: bearer(c.tokens.superchris),
          payload: { name: "Neu", surname: "Person", login, password: "Neu-Pass-1!", facility: c.facilityA.id },
        });
      const eighth = await create("achte");
      expect(eighth.statusCode, eighth.body).toBe(200);
      expect((await create("neunte")).json().error_code).toBe(ErrorCode.maxUsersReached);
      const removed = await limited.app.inject({
        method: "DELETE",
        url: `/api/auth/admin/users/${eighth.json().id}`,
        headers: bearer(c.tokens.superchris),
      });
      expect(removed.statusCode).toBe(200);
      expect((await create("neunte")).statusCode).toBe(200);
      const restore = await limited.app.inject({
        method: "POST",
        url: `/api/auth/admin/users/${eighth.json().id}/restore`,
        headers: bearer(c.tokens.superchris),
      });
      expect(restore.statusCode).toBe(409);
      expect(restore.json().error_code).toBe(ErrorCode.maxUsersReached);
      expect(
        (
          await limited.app.inject({ url: "/api/auth/admin/users?former=true", headers: bearer(c.tokens.superchris) })
        ).json().total,
      ).toBe(1);
    } finally {
      await limited.close();
    }
  });
});
