import { addMonths, type CalendarEventDetail, ErrorCode, type ProposalEntry } from "@carecampus/contract";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  api,
  berlin,
  type CalendarScene,
  eventBody,
  type TrainingRef,
  tokenAt,
  useCalendarScene,
  ZONE,
} from "../../test/calendar";
import { bearer, createFacility, createUser, type TestContext, type TestUser } from "../../test/helpers";
import { issueCertificate } from "../certificates/service";
import { certificates, trainingMatrices, trainingMatrixEntries } from "../db/schema";

/** 1 March 2027, 10:00 in Berlin. */
const NOW = berlin(2027, 3, 1, 10);
let ctx: TestContext;
let scene: CalendarScene;
useCalendarScene(NOW, (c, s) => {
  ctx = c;
  scene = s;
});

/** A certificate of `training` that expires at `expiresAt` (issued 12 months before, the fixture's validity). */
async function certificateExpiring(user: TestUser, training: TrainingRef, expiresAt: Date) {
  return ctx.deps.database.db.transaction((tx) =>
    issueCertificate(
      tx,
      user.id,
      { id: training.id, validityMonths: 12, points: 10, newest: null },
      addMonths(expiresAt, -12, ZONE),
      ZONE,
    ),
  );
}

async function certificatesOf(user: TestUser, training: TrainingRef) {
  return ctx.deps.database.db
    .select()
    .from(certificates)
    .where(and(eq(certificates.userId, user.id), eq(certificates.trainingId, training.id)))
    .orderBy(certificates.id);
}

describe("GET /calendar/proposal", () => {
  it("lists the facility's employees assigned the training, proposing those whose certificate ends by the event", async () => {
    const facility = await createFacility(ctx);
    const staff = await createUser(ctx, ["administrator"], facility.id);
    // Surnames are "User <n>" in creation order; the colours are those of today (1 March).
    const person = (_what: string) => createUser(ctx, ["employee"], facility.id);
    const none = await person("none");
    const expired = await person("expired");
    const orange = await person("orange");
    const yellowBefore = await person("yellow, ends before the event");
    const onTheDay = await person("ends on the event's day");
    const yellowAfter = await person("yellow, ends after the event");
    const green = await person("green");
    const unassigned = await person("matrix without the training");
    await certificateExpiring(expired, scene.active, berlin(2027, 2, 20, 12));
    await certificateExpiring(orange, scene.active, berlin(2027, 3, 5, 12));
    await certificateExpiring(yellowBefore, scene.active, berlin(2027, 3, 15, 12));
    await certificateExpiring(onTheDay, scene.active, berlin(2027, 3, 21, 23));
    await certificateExpiring(yellowAfter, scene.active, berlin(2027, 3, 28, 12));
    await certificateExpiring(green, scene.active, berlin(2027, 6, 1, 12));
    // An older certificate does not count once a newer one exists.
    await certificateExpiring(green, scene.active, berlin(2026, 6, 1, 12));
    const { db } = ctx.deps.database;
    await db.insert(trainingMatrices).values({ userId: unassigned.id });
    await db.insert(trainingMatrixEntries).values({ userId: unassigned.id, trainingId: scene.passive.id });
    // Another facility's employee without a certificate is never proposed here.
    await createUser(ctx, ["employee"], scene.facilityB.id);

    const token = await tokenAt(ctx, staff, NOW);
    const res = await api(
      ctx,
      token,
      "GET",
      `/api/calendar/proposal?facility=${facility.id}&training=${scene.active.id}&start=2027-03-21T09:00:00%2B01:00`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const proposal = res.json() as ProposalEntry[];
    const row = (u: TestUser) => proposal.find((p) => p.id === u.id);
    expect(proposal.map((p) => p.id)).toEqual([
      none.id,
      expired.id,
      orange.id,
      yellowBefore.id,
      onTheDay.id,
      yellowAfter.id,
      green.id,
    ]);
    expect(proposal.map((p) => [p.colour, p.proposed])).toEqual([
      ["red", true],
      ["red", true],
      ["orange", true],
      ["yellow", true],
      ["yellow", true],
      ["yellow", false],
      ["green", false],
    ]);
    expect(row(none)).toMatchObject({ name: "Test", expires_at: null });
    expect(row(green)?.expires_at).toBe(berlin(2027, 6, 1, 12).toISOString());
    expect(row(unassigned)).toBeUndefined();

    // Proposed first, then by surname: a later event proposes the yellow one too, in name order.
    const later = await api(
      ctx,
      token,
      "GET",
      `/api/calendar/proposal?facility=${facility.id}&training=${scene.active.id}&start=2027-04-10`,
    );
    expect((later.json() as ProposalEntry[]).map((p) => [p.id, p.proposed])).toEqual([
      [none.id, true],
      [expired.id, true],
      [orange.id, true],
      [yellowBefore.id, true],
      [onTheDay.id, true],
      [yellowAfter.id, true],
      [green.id, false],
    ]);
  });

  it.each([
    [
      "another facility",
      () => `facility=${scene.facilityB.id}&training=${scene.active.id}&start=2027-03-21`,
      404,
      ErrorCode.facilityNotFound,
    ],
    [
      "an unknown facility",
      () => `facility=999999&training=${scene.active.id}&start=2027-03-21`,
      404,
      ErrorCode.facilityNotFound,
    ],
    [
      "an unknown training",
      () => `facility=${scene.facilityA.id}&training=999999&start=2027-03-21`,
      404,
      ErrorCode.trainingNotFound,
    ],
    ["no start", () => `facility=${scene.facilityA.id}&training=${scene.active.id}`, 400, ErrorCode.validation],
    [
      "a start that is no date",
      () => `facility=${scene.facilityA.id}&training=${scene.active.id}&start=2027-02-31`,
      400,
      ErrorCode.validation,
    ],
  ] as const)("refuses %s", async (_name, query, status, code) => {
    const res = await api(ctx, scene.tokens.supervisor, "GET", `/api/calendar/proposal?${query()}`);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ error_code: code, status_code: status });
  });
});

describe("PUT /calendar/events/{id}/attendance", () => {
  async function scheduled(training: TrainingRef, invitees: TestUser[], start = "2027-03-10T09:00:00+01:00") {
    const res = await api(
      ctx,
      scene.tokens.administrator,
      "POST",
      "/api/calendar/events",
      eventBody(scene.facilityA.id, training, {
        Start: start,
        End: start.replace("T09:", "T12:"),
        Invitees: invitees.map((u) => u.id),
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as CalendarEventDetail;
  }

  const record = (token: string, id: number, attended: TestUser[]) =>
    ctx.app.inject({
      method: "PUT",
      url: `/api/calendar/events/${id}/attendance`,
      headers: bearer(token),
      payload: { attended: attended.map((u) => u.id) },
    });

  it("issues the passive training's certificates from the event's start, once per attendee", async () => {
    ctx.clock.now = NOW;
    const [e1, e2, e3] = [
      await createUser(ctx, ["employee"], scene.facilityA.id),
      await createUser(ctx, ["employee"], scene.facilityA.id),
      await createUser(ctx, ["employee"], scene.facilityA.id),
    ] as [TestUser, TestUser, TestUser];
    const event = await scheduled(scene.passive, [e1, e2, e3]);
    const admin = scene.users.administrator;

    // Before the event: nothing can be recorded.
    const early = await record(scene.tokens.administrator, event.ID, [e1]);
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toMatch(/once the event has begun/);

    const token = await tokenAt(ctx, admin, berlin(2027, 3, 10, 13));
    const stranger = await record(token, event.ID, [e1, scene.users.employee]);
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toContain(String(scene.users.employee.id));
    expect(await certificatesOf(e1, scene.passive)).toEqual([]);

    const first = await record(token, event.ID, [e1, e2]);
    expect(first.statusCode, first.body).toBe(200);
    const result = first.json() as { event: CalendarEventDetail; certificates: number };
    expect(result.certificates).toBe(2);
    expect(result.event).toMatchObject({ Started: true, InviteeCount: 3, AttendedCount: 2 });
    const attended = Object.fromEntries(result.event.Invitees.map((i) => [i.id, [i.attended, i.colour]]));
    // Valid for 12 months from the event's day: green today.
    expect(attended).toEqual({ [e1.id]: [true, "green"], [e2.id]: [true, "green"], [e3.id]: [false, "red"] });
    const [certificate] = await certificatesOf(e1, scene.passive);
    expect(certificate).toMatchObject({
      acquiredAt: new Date("2027-03-10T08:00:00.000Z"),
      expiresAt: new Date("2028-03-10T08:00:00.000Z"),
      points: 20,
      markedBy: admin.id,
    });

    // Recorded again with a third attendee: only that one is new; taken back keeps the certificate.
    const second = await record(token, event.ID, [e1, e3]);
    expect(second.json()).toMatchObject({ certificates: 1, event: { AttendedCount: 2 } });
    expect(await certificatesOf(e1, scene.passive)).toHaveLength(1);
    expect(await certificatesOf(e2, scene.passive)).toHaveLength(1);
    expect(await certificatesOf(e3, scene.passive)).toHaveLength(1);
    const again = await record(token, event.ID, [e1, e2, e3]);
    expect(again.json()).toMatchObject({ certificates: 0, event: { AttendedCount: 3 } });
    expect(await certificatesOf(e2, scene.passive)).toHaveLength(1);
    ctx.clock.now = NOW;
  });

  it("gives back a certificate marked in the overview on the event's day instead of a second one", async () => {
    const learner = await createUser(ctx, ["employee"], scene.facilityA.id);
    const event = await scheduled(scene.passive, [learner], "2027-03-12T09:00:00+01:00");
    const token = await tokenAt(ctx, scene.users.supervisor, berlin(2027, 3, 12, 15));
    const marked = await api(ctx, token, "POST", `/api/progress/admin/users/${learner.id}/passivetraining`, {
      topicID: scene.passive.topicId,
      trainingID: scene.passive.id,
    });
    expect(marked.statusCode, marked.body).toBe(200);
    const res = await record(token, event.ID, [learner]);
    expect(res.json()).toMatchObject({ certificates: 0, event: { AttendedCount: 1 } });
    expect(await certificatesOf(learner, scene.passive)).toHaveLength(1);
    ctx.clock.now = NOW;
  });

  it("only records attendance for an active training", async () => {
    const learner = await createUser(ctx, ["employee"], scene.facilityA.id);
    const event = await scheduled(scene.active, [learner], "2027-03-11T09:00:00+01:00");
    const token = await tokenAt(ctx, scene.users.supervisor, berlin(2027, 3, 11, 9));
    const res = await record(token, event.ID, [learner]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ certificates: 0, event: { AttendedCount: 1 } });
    expect(await certificatesOf(learner, scene.active)).toEqual([]);
    const none = await record(token, event.ID, []);
    expect(none.json()).toMatchObject({ certificates: 0, event: { AttendedCount: 0 } });
    expect((none.json() as { event: CalendarEventDetail }).event.Invitees[0]?.attended).toBe(false);
    ctx.clock.now = NOW;
  });
});
