import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFixture } from "../../test/content-fixture";
import {
  bearer,
  createFacility,
  createTestApp,
  createUser,
  login,
  onPostgres,
  type TestContext,
} from "../../test/helpers";
import type { Tx } from "../db/client";
import { answers, quizAttempts, userRoles, users } from "../db/schema";
import { sessionUser } from "./session-cache";

/*
 * Sessions come from memory (security/session-cache.ts), yet every change of a user is seen by the
 * very next request, whoever made it: here written straight into the database, as another
 * server or the password-reset CLI would.
 */

let ctx: TestContext;
let facilityId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  facilityId = (await createFacility(ctx)).id;
});
afterAll(() => ctx.close());

const me = (id: number, token: string) =>
  ctx.app.inject({ method: "GET", url: `/api/auth/users/${id}`, headers: bearer(token) });
const topics = (token: string) =>
  ctx.app.inject({ method: "GET", url: "/api/progress/topics", headers: bearer(token) });
const staffHome = (token: string) => ctx.app.inject({ method: "GET", url: "/api/home/staff", headers: bearer(token) });

/**
 * A change this server has not heard of yet, as another server's in the moment after its commit:
 * written with the triggers that notify the servers switched off (PostgreSQL).
 */
const unheard = (work: (tx: Tx) => Promise<unknown>) =>
  ctx.deps.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await work(tx);
  });

describe("sessions kept in memory", () => {
  it("end at once when the user's token version changes (a new password, by any writer)", async () => {
    const user = await createUser(ctx, ["employee"], facilityId);
    const token = await login(ctx, user.login);
    expect((await me(user.id, token)).statusCode).toBe(200);
    expect((await me(user.id, token)).statusCode).toBe(200);
    await ctx.deps.database.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, user.id));
    const after = await me(user.id, token);
    expect(after.statusCode).toBe(401);
    expect(after.json().error_code).toBe(1010);
  });

  it("follow a change of roles at once: the next request is admitted by the new roles", async () => {
    const user = await createUser(ctx, ["employee"], facilityId);
    const token = await login(ctx, user.login);
    // The staff start page: its guard reads the session's user (the learning routes confirm it
    // in their own statement, below).
    expect((await staffHome(token)).statusCode).toBe(403);
    const { db } = ctx.deps.database;
    await db.transaction(async (tx) => {
      await tx.delete(userRoles).where(eq(userRoles.userId, user.id));
      await tx.insert(userRoles).values({ userId: user.id, role: "supervisor" });
    });
    expect((await staffHome(token)).statusCode).toBe(200);
    if (!onPostgres) expect((await topics(token)).statusCode).toBe(403);
  });

  it("follow a change of name or facility at once, and end when the user is deleted", async () => {
    const user = await createUser(ctx, ["employee"], facilityId);
    const token = await login(ctx, user.login);
    const { db } = ctx.deps.database;
    const first = await sessionUser(db, user.id);
    // Kept in memory on PGlite; on PostgreSQL read every time (session-cache.ts says why).
    if (onPostgres) expect(await sessionUser(db, user.id)).not.toBe(first);
    else expect(await sessionUser(db, user.id)).toBe(first);
    const other = await createFacility(ctx);
    await db.update(users).set({ surname: "Umbenannt", facilityId: other.id }).where(eq(users.id, user.id));
    expect(await sessionUser(db, user.id)).toMatchObject({ surname: "Umbenannt", facilityId: other.id });
    // Anything a session does not carry leaves it in memory.
    const current = await sessionUser(db, user.id);
    await db.update(users).set({ email: "neu@example.org" }).where(eq(users.id, user.id));
    if (!onPostgres) expect(await sessionUser(db, user.id)).toBe(current);
    await db.delete(users).where(eq(users.id, user.id));
    expect((await me(user.id, token)).statusCode).toBe(401);
  });
});

describe.skipIf(!onPostgres)("sessions a learning route confirms in its own statement (PostgreSQL)", () => {
  it("follow a change this server has not heard of: a new password ends the session before the answer is recorded, a name or role is read again", async () => {
    const { db } = ctx.deps.database;
    const ids = await importFixture(db);
    const user = await createUser(ctx, ["employee"], facilityId);
    const token = await login(ctx, user.login);
    const questions = `/api/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires/${ids.qn1}/questions`;
    const next = await ctx.app.inject({ method: "GET", url: questions, headers: bearer(token) });
    expect(next.statusCode).toBe(200);
    const question = next.json().question as { id: number };
    const [choice] = await db.select({ id: answers.id }).from(answers).where(eq(answers.questionId, question.id));
    const send = () =>
      ctx.app.inject({
        method: "POST",
        url: `${questions}/${question.id}/answers`,
        headers: bearer(token),
        payload: [choice?.id ?? 0],
      });
    const attempts = async () => (await db.select().from(quizAttempts).where(eq(quizAttempts.userId, user.id))).length;

    // A new password elsewhere: the session is over, and the answer was not recorded.
    await unheard((tx) =>
      tx
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, user.id)),
    );
    const refused = await send();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error_code).toBe(1010);
    expect(await attempts()).toBe(0);

    // A name changed elsewhere leaves the session valid: the route runs once more with the user
    // as the database holds them, and the answer is recorded once.
    const other = await createUser(ctx, ["employee"], facilityId);
    const otherToken = await login(ctx, other.login);
    const otherNext = await ctx.app.inject({ method: "GET", url: questions, headers: bearer(otherToken) });
    expect(otherNext.statusCode).toBe(200);
    const otherQuestion = otherNext.json().question as { id: number };
    const [otherChoice] = await db
      .select({ id: answers.id })
      .from(answers)
      .where(eq(answers.questionId, otherQuestion.id));
    await unheard((tx) => tx.update(users).set({ surname: "Neuname" }).where(eq(users.id, other.id)));
    const renamed = await ctx.app.inject({
      method: "POST",
      url: `${questions}/${otherQuestion.id}/answers`,
      headers: bearer(otherToken),
      payload: [otherChoice?.id ?? 0],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await db.select().from(quizAttempts).where(eq(quizAttempts.userId, other.id))).length).toBe(1);

    // A role taken away elsewhere: this very request is refused by the roles the database holds
    // now (403, as every later one), not ended as an expired session.
    expect((await topics(otherToken)).statusCode).toBe(200);
    await unheard(async (tx) => {
      await tx.delete(userRoles).where(eq(userRoles.userId, other.id));
      await tx.insert(userRoles).values({ userId: other.id, role: "supervisor" });
    });
    const stale = await topics(otherToken);
    expect(stale.statusCode).toBe(403);
    expect((await topics(otherToken)).statusCode).toBe(403);
  });
});
