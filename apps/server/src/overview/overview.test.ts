import { ErrorCode, isoDay, type OverviewUser, TopicOverview, zonedTime } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, createUser, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { certificates, trainingMatrices, trainingMatrixEntries, trainings } from "../db/schema";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let ids: { topic: number; active: number; passive: number };
type Who = keyof Awaited<ReturnType<typeof createCast>>["tokens"];
const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await createTestApp();
  // Noon in the configured zone: day arithmetic must not depend on the hour or the TZ the suite runs in.
  ctx.clock.now = zonedTime(ctx.deps.config.timeZone, 2026, 11, 22, 12);
  cast = await createCast(ctx);
  await importPackage(ctx.deps.database.db, loadPackage(writeFixture()));
  const db = ctx.deps.database.db;
  const [a] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
  const [p] = await db.select().from(trainings).where(eq(trainings.key, "kurs"));
  ids = { topic: a?.topicId ?? 0, active: a?.id ?? 0, passive: p?.id ?? 0 };
});
afterAll(() => ctx.close());

const get = (who: Who, query = "") =>
  ctx.app.inject({ url: `/api/progress/admin/topics/${ids.topic}${query}`, headers: bearer(cast.tokens[who]) });
const mark = (who: Who, userId: number, body: unknown) =>
  ctx.app.inject({
    method: "POST",
    url: `/api/progress/admin/users/${userId}/passivetraining`,
    headers: bearer(cast.tokens[who]),
    payload: body as object,
  });
const userIds = (body: { users: OverviewUser[] }) => body.users.map((u) => u.id);

async function certify(userId: number, trainingId: number, expiresInDays: number, acquiredDaysAgo = 300) {
  const now = ctx.clock.now.getTime();
  await ctx.deps.database.db.insert(certificates).values({
    userId,
    trainingId,
    acquiredAt: new Date(now - acquiredDaysAgo * DAY),
    expiresAt: new Date(now + expiresInDays * DAY),
    points: 0,
    verificationCode: crypto.randomUUID(),
  });
}

describe("GET /api/progress/admin/topics/{topicId}", () => {
  it("scopes learners by role and facility", async () => {
    const a = cast.users.employee.id;
    const b = cast.users.employeeB.id;
    for (const who of ["administrator", "supervisor"] as const) {
      const res = await get(who);
      expect(res.statusCode, res.body).toBe(200);
      // The route skips response validation for speed: the shape is checked here instead.
      expect(TopicOverview.safeParse(res.json()).success).toBe(true);
      expect(userIds(res.json())).toContain(a);
      expect(userIds(res.json())).not.toContain(b);
      // Their own facility by name is fine; another one is not.
      expect((await get(who, `?facilityName=${encodeURIComponent(cast.facilityA.name)}`)).statusCode).toBe(200);
      const other = await get(who, `?facilityName=${encodeURIComponent(cast.facilityB.name)}`);
      expect(other.statusCode).toBe(404);
      expect(other.json().error_code).toBe(ErrorCode.facilityNotFound);
    }
    for (const who of ["superchris", "contentmanager"] as const) {
      const all = userIds((await get(who)).json());
      expect(all).toEqual(expect.arrayContaining([a, b]));
      const onlyB = userIds(
        (await get(who, `?facilityName=${encodeURIComponent(cast.facilityB.name.toUpperCase())}`)).json(),
      );
      expect(onlyB).toContain(b);
      expect(onlyB).not.toContain(a);
      expect((await get(who, "?facilityName=Haus%20Nirgendwo")).json().error_code).toBe(ErrorCode.facilityNotFound);
    }
    const employee = await get("employee");
    expect(employee.statusCode).toBe(403);
    expect(employee.json().error_code).toBe(ErrorCode.notAllowedToSeeEmployees);
    // Staff without the employee role do not learn and are not listed.
    expect(userIds((await get("superchris")).json())).not.toContain(cast.users.supervisor.id);
  });

  it("lists the trainings by name with their passive flag and 404s an unknown topic", async () => {
    const body = (await get("administrator")).json();
    expect(body.topic.id).toBe(ids.topic);
    expect(body.trainings.map((t: { name: string; passive: boolean }) => [t.name, t.passive])).toEqual([
      ["Händehygiene", false],
      ["Reanimationskurs", true],
    ]);
    const missing = await ctx.app.inject({
      url: "/api/progress/admin/topics/999999",
      headers: bearer(cast.tokens.administrator),
    });
    expect(missing.statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ url: "/api/progress/admin/topics/x", headers: bearer(cast.tokens.administrator) }))
        .statusCode,
    ).toBe(400);
  });

  it.each([
    [31, "green"],
    [30, "yellow"],
    [8, "yellow"],
    [7, "orange"],
    [1, "orange"],
    [0, "red"],
    [-5, "red"],
  ] as const)("colours a certificate expiring in %s days %s", async (days, colour) => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    await certify(u.id, ids.active, days);
    const row = (await get("supervisor")).json().users.find((x: OverviewUser) => x.id === u.id) as OverviewUser;
    const cell = row.cells.find((c) => c.training_id === ids.active);
    expect(cell?.colour).toBe(colour);
    expect(cell?.expires_at).not.toBeNull();
    // No certificate at all: red with no dates.
    expect(row.cells.find((c) => c.training_id === ids.passive)).toMatchObject({ colour: "red", expires_at: null });
  });

  it("shows the newest certificate and only the trainings assigned by the matrix", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    await certify(u.id, ids.active, -30, 400);
    await certify(u.id, ids.active, 200, 10);
    const onlyPassive = await createUser(ctx, ["employee"], cast.facilityA.id);
    const nothing = await createUser(ctx, ["employee"], cast.facilityA.id);
    const db = ctx.deps.database.db;
    await db.insert(trainingMatrices).values([{ userId: onlyPassive.id }, { userId: nothing.id }]);
    await db.insert(trainingMatrixEntries).values({ userId: onlyPassive.id, trainingId: ids.passive });
    const body = (await get("administrator")).json() as { users: OverviewUser[] };
    expect(body.users.find((x) => x.id === u.id)?.cells[0]?.colour).toBe("green");
    expect(body.users.find((x) => x.id === onlyPassive.id)?.cells.map((c) => c.training_id)).toEqual([ids.passive]);
    expect(body.users.some((x) => x.id === nothing.id)).toBe(false);
  });
});

describe("POST /api/progress/admin/users/{id}/passivetraining", () => {
  it.each([
    ["superchris", 200],
    ["contentmanager", 200],
    ["administrator", 200],
    ["supervisor", 200],
    ["employee", 403],
    ["administratorB", 404],
  ] as [Who, number][])("%s marks an employee of facility A: %s", async (who, status) => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const res = await mark(who, u.id, { topicID: ids.topic, trainingID: ids.passive });
    expect(res.statusCode, res.body).toBe(status);
    const row = (await get("administrator")).json().users.find((x: OverviewUser) => x.id === u.id) as OverviewUser;
    const cell = row.cells.find((c) => c.training_id === ids.passive);
    if (status !== 200) {
      expect(cell?.expires_at).toBeNull();
      return;
    }
    // A certificate from today with the training's 12 months.
    expect(res.json()).toEqual(cell);
    const zone = ctx.deps.config.timeZone;
    expect(isoDay(new Date(String(cell?.acquired_at)), zone)).toBe("2026-11-22");
    expect(isoDay(new Date(String(cell?.expires_at)), zone)).toBe("2027-11-22");
    expect(cell?.colour).toBe("green");
  });

  it("gives the same certificate for a second mark the same day, a new one later", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const body = { topicID: ids.topic, trainingID: ids.passive };
    const [first, second] = await Promise.all([mark("supervisor", u.id, body), mark("supervisor", u.id, body)]);
    expect(first.json()).toEqual(second.json());
    const count = async () =>
      (await ctx.deps.database.db.select().from(certificates).where(eq(certificates.userId, u.id))).length;
    expect(await count()).toBe(1);
    // The first was marked 40 days ago: marking again is a new certificate.
    await ctx.deps.database.db
      .update(certificates)
      .set({ acquiredAt: new Date(ctx.clock.now.getTime() - 40 * DAY) })
      .where(eq(certificates.userId, u.id));
    const later = await mark("supervisor", u.id, body);
    expect(later.statusCode).toBe(200);
    expect(later.json().acquired_at).toBe(ctx.clock.now.toISOString());
    expect(await count()).toBe(2);
  });

  it("refuses active trainings, wrong topics, unassigned or unknown trainings and non-learners", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const active = await mark("administrator", u.id, { topicID: ids.topic, trainingID: ids.active });
    expect(active.statusCode).toBe(400);
    expect(active.json().message).toMatch(/passive/);
    for (const body of [
      { topicID: ids.topic, trainingID: 999_999 },
      { topicID: 999_999, trainingID: ids.passive },
    ]) {
      const res = await mark("administrator", u.id, body);
      expect(res.statusCode).toBe(404);
      expect(res.json().error_code).toBe(ErrorCode.trainingNotFound);
    }
    const unassigned = await createUser(ctx, ["employee"], cast.facilityA.id);
    await ctx.deps.database.db.insert(trainingMatrices).values({ userId: unassigned.id });
    expect(
      (await mark("administrator", unassigned.id, { topicID: ids.topic, trainingID: ids.passive })).statusCode,
    ).toBe(404);
    const staff = await mark("administrator", cast.users.supervisor.id, {
      topicID: ids.topic,
      trainingID: ids.passive,
    });
    expect(staff.statusCode).toBe(400);
    for (const body of [
      {},
      { topicID: ids.topic },
      { topicID: "a", trainingID: 1 },
      { topicID: 1, trainingID: 1, x: 1 },
    ]) {
      expect((await mark("administrator", u.id, body)).statusCode).toBe(400);
    }
    expect((await mark("administrator", 999_999, { topicID: ids.topic, trainingID: ids.passive })).statusCode).toBe(
      404,
    );
    const certs = await ctx.deps.database.db.select().from(certificates).where(eq(certificates.userId, u.id));
    expect(certs).toEqual([]);
  });
});
