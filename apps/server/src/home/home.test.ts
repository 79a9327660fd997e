import { ErrorCode, type StaffHome } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { callAs, createCast, createTestApp, createUser, type TestContext, type TestUser } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import {
  calendarEvents,
  calendarInvitees,
  certificates,
  questionnaires,
  questions,
  trainingMatrices,
  trainingMatrixEntries,
  trainings,
  users,
  wikiPages,
} from "../db/schema";

/*
 * The staff start page (issue 30): per facility and training who is red, orange or yellow (the
 * overview's rule: assigned current employees, newest certificate that counts), open help
 * requests, events waiting for attendance and incomplete QM confirmations — each within the
 * caller's facilities, and for staff only.
 */

const DAY = 86_400_000;
let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let haende: number;
let kurs: number;
let topic: number;
let orange: TestUser;
let yellow: TestUser;
let green: TestUser;
let onlyKurs: TestUser;
let eventId: number;
let pageId: number;

const home = async (token: string) => {
  const res = await callAs(ctx, token, "GET", "/home/staff");
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StaffHome;
};

/** Per training name in one facility: [red, orange, yellow]. */
const colours = (part: StaffHome["due"], facility: number) =>
  Object.fromEntries(
    part.rows.filter((r) => r.facility.id === facility).map((r) => [r.training.name, [r.red, r.orange, r.yellow]]),
  );

async function certify(user: number, training: number, expiresInDays: number, revoked = false, acquiredDaysAgo = 300) {
  const now = ctx.clock.now.getTime();
  await ctx.deps.database.db.insert(certificates).values({
    userId: user,
    trainingId: training,
    acquiredAt: new Date(now - acquiredDaysAgo * DAY),
    expiresAt: new Date(now + expiresInDays * DAY),
    points: 10,
    verificationCode: `HOME${crypto.randomUUID().slice(0, 8).toUpperCase()}`,
    ...(revoked ? { revokedAt: new Date(now), revokeReason: "issued_in_error" } : {}),
  });
}

beforeAll(async () => {
  ctx = await createTestApp();
  const { db } = ctx.deps.database;
  const fixture = writeFixture({
    files: {
      "wiki/topics.yaml": "topics:\n  - key: hygiene\n    title: Hygiene\n",
      "wiki/hygiene/pages.yaml": "pages:\n  - key: haende\n    requires_confirmation: true\n",
      "wiki/hygiene/haende.de.md": "# Hygieneplan\n\nHände desinfizieren.\n",
      "wiki/hygiene/haende.en.md": "# Hygiene plan\n\nDisinfect your hands.\n",
    },
  });
  await importPackage(db, loadPackage(fixture), ctx.clock.now);
  cast = await createCast(ctx);
  const rows = await db.select({ id: trainings.id, key: trainings.key, topic: trainings.topicId }).from(trainings);
  haende = rows.find((r) => r.key === "haende")?.id as number;
  kurs = rows.find((r) => r.key === "kurs")?.id as number;
  topic = rows.find((r) => r.key === "haende")?.topic as number;
  const a = cast.facilityA.id;
  orange = await createUser(ctx, ["employee"], a);
  yellow = await createUser(ctx, ["employee"], a);
  green = await createUser(ctx, ["employee"], a);
  const renewed = await createUser(ctx, ["employee"], a);
  onlyKurs = await createUser(ctx, ["employee"], a);
  const former = await createUser(ctx, ["employee"], a);
  await db.update(users).set({ archivedAt: ctx.clock.now }).where(eq(users.id, former.id));
  // The employee's certificate was revoked: it proves nothing, so they stay red.
  await certify(cast.users.employee.id, haende, 200, true);
  await certify(orange.id, haende, 3);
  await certify(yellow.id, haende, 20);
  await certify(green.id, haende, 100);
  // An older certificate with a longer life does not count: the newest one does (yellow).
  await certify(renewed.id, haende, 400, false, 300);
  await certify(renewed.id, haende, 20, false, 10);
  await db.insert(trainingMatrices).values({ userId: onlyKurs.id });
  await db.insert(trainingMatrixEntries).values({ userId: onlyKurs.id, trainingId: kurs });

  const [event] = await db
    .insert(calendarEvents)
    .values({
      facilityId: a,
      topicId: topic,
      trainingId: kurs,
      label: "",
      color: "#1c7ed6",
      allDay: false,
      startsAt: new Date(ctx.clock.now.getTime() - 2 * DAY),
      endsAt: new Date(ctx.clock.now.getTime() - 2 * DAY + 3_600_000),
    })
    .returning({ id: calendarEvents.id });
  eventId = event?.id as number;
  await db.insert(calendarInvitees).values([
    { eventId, userId: cast.users.employee.id },
    { eventId, userId: orange.id },
  ]);
  const [page] = await db.select({ id: wikiPages.id }).from(wikiPages).where(eq(wikiPages.slug, "haende"));
  pageId = page?.id as number;
});
afterAll(() => ctx.close());

describe("GET /api/home/staff", () => {
  it("counts per training who is red, orange and yellow in the caller's facility, the most urgent first", async () => {
    const body = await home(cast.tokens.administrator);
    // kurs: every employee of A (onlyKurs's matrix has it; the former employee is gone); haende: onlyKurs has none.
    expect(colours(body.due, cast.facilityA.id)).toEqual({ Reanimationskurs: [6, 0, 0], Händehygiene: [1, 1, 2] });
    expect(body.due.rows.map((r) => r.training.name)).toEqual(["Reanimationskurs", "Händehygiene"]);
    expect(body.due.total).toBe(2);
    expect(body.due.rows[1]).toMatchObject({
      facility: { id: cast.facilityA.id, name: cast.facilityA.name },
      topic: { id: topic, name: "Hygiene" },
      training: { id: haende, passive: false },
    });
    expect(colours(body.expiring, cast.facilityA.id)).toEqual({ Händehygiene: [1, 1, 2] });
    // The supervisor sees the same.
    expect((await home(cast.tokens.supervisor)).due).toEqual(body.due);
  });

  it("stays within the facility: B's administrator sees B, a superuser and a Super-Admin both", async () => {
    const b = await home(cast.tokens.administratorB);
    expect(b.due.rows.every((r) => r.facility.id === cast.facilityB.id)).toBe(true);
    expect(colours(b.due, cast.facilityB.id)).toEqual({ Reanimationskurs: [1, 0, 0], Händehygiene: [1, 0, 0] });
    expect(b.attendance.total).toBe(0);
    for (const who of ["superchris", "contentmanager"] as const) {
      const all = await home(cast.tokens[who]);
      expect(colours(all.due, cast.facilityA.id)).toEqual(
        colours((await home(cast.tokens.administrator)).due, cast.facilityA.id),
      );
      expect(colours(all.due, cast.facilityB.id)).toEqual(colours(b.due, cast.facilityB.id));
      expect(all.attendance.rows.map((e) => e.id)).toContain(eventId);
    }
  });

  it("lists open help requests with their colour, only of the caller's facility", async () => {
    const [question] = await ctx.deps.database.db
      .select({ id: questions.id })
      .from(questions)
      .innerJoin(questionnaires, eq(questionnaires.id, questions.questionnaireId))
      .where(eq(questionnaires.trainingId, haende))
      .limit(1);
    const asked = await callAs(ctx, cast.tokens.employee, "POST", "/help", { question_id: question?.id });
    expect(asked.statusCode, asked.body).toBe(200);
    const a = await home(cast.tokens.administrator);
    expect(a.help).toMatchObject({
      total: 1,
      requests: 1,
      rows: [{ question_id: question?.id, count: 1, color: "yellow" }],
    });
    expect((await home(cast.tokens.administratorB)).help).toEqual({ total: 0, requests: 0, rows: [] });
  });

  it("lists an ended event until its attendance is recorded", async () => {
    const before = await home(cast.tokens.administrator);
    expect(before.attendance).toMatchObject({
      total: 1,
      rows: [{ id: eventId, label: "Reanimationskurs", invitees: 2 }],
    });
    const recorded = await callAs(ctx, cast.tokens.administrator, "PUT", `/calendar/events/${eventId}/attendance`, {
      attended: [orange.id],
    });
    expect(recorded.statusCode, recorded.body).toBe(200);
    const after = await home(cast.tokens.administrator);
    expect(after.attendance).toEqual({ total: 0, rows: [] });
    // The attendee's certificate of the passive course makes them green there.
    expect(colours(after.due, cast.facilityA.id).Reanimationskurs).toEqual([5, 0, 0]);
  });

  it("lists a QM page per facility until everyone of it confirmed the released version", async () => {
    const a = await home(cast.tokens.administrator);
    // Everyone of A who is a current member: administrator, supervisor, employee and five more.
    expect(a.confirmations).toMatchObject({
      total: 1,
      rows: [{ page_id: pageId, title: "Hygieneplan", topic_key: "hygiene", slug: "haende", confirmed: 0, total: 8 }],
    });
    const confirmed = await callAs(ctx, cast.tokens.employee, "POST", `/wiki/pages/${pageId}/confirm`, { revision: 1 });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await home(cast.tokens.administrator)).confirmations.rows[0]).toMatchObject({ confirmed: 1, total: 8 });
    // A Super-Admin sees the page once per facility.
    const all = await home(cast.tokens.contentmanager);
    expect(all.confirmations.rows.map((r) => r.facility.id).sort()).toEqual(
      [cast.facilityA.id, cast.facilityB.id].sort(),
    );
  });

  it("is for staff only", async () => {
    for (const who of ["employee", "employeeB"] as const) {
      const res = await callAs(ctx, cast.tokens[who], "GET", "/home/staff");
      expect(res.statusCode).toBe(403);
      expect(res.json().error_code).toBe(ErrorCode.notAllowedToSeeEmployees);
    }
    expect((await ctx.app.inject({ method: "GET", url: "/api/home/staff" })).statusCode).toBe(401);
  });
});
