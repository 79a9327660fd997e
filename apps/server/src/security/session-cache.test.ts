import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createFacility,
  createTestApp,
  createUser,
  login,
  onPostgres,
  type TestContext,
} from "../../test/helpers";
import { userRoles, users } from "../db/schema";
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
    expect((await topics(token)).statusCode).toBe(200);
    const { db } = ctx.deps.database;
    await db.transaction(async (tx) => {
      await tx.delete(userRoles).where(eq(userRoles.userId, user.id));
      await tx.insert(userRoles).values({ userId: user.id, role: "supervisor" });
    });
    expect((await topics(token)).statusCode).toBe(403);
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
