import crypto from "node:crypto";
import {
  type CalendarEvent,
  type CalendarEventDetail,
  ErrorCode,
  encodeEventTitle,
  type MyEvent,
} from "@carecampus/contract";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, berlin, type CalendarScene, eventBody, tokenAt, useCalendarScene } from "../../test/calendar";
import { createUser, type TestContext } from "../../test/helpers";
import { calendarEvents, calendarInvitees, trainings } from "../db/schema";

/** The clock of this file: 1 March 2027, 10:00 in Berlin; events lie later in March. */
const NOW = berlin(2027, 3, 1, 10);
let ctx: TestContext;
let scene: CalendarScene;
useCalendarScene(NOW, (c, s) => {
  ctx = c;
  scene = s;
});

const A = () => scene.facilityA.id;
const B = () => scene.facilityB.id;
const token = (who: keyof typeof scene.tokens) => scene.tokens[who];

async function create(who: keyof typeof scene.tokens, body: object) {
  const res = await api(ctx, token(who), "POST", "/api/calendar/events", body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CalendarEventDetail;
}

async function eventCount() {
  const [row] = await ctx.deps.database.db.select({ n: sql<number>`count(*)::int` }).from(calendarEvents);
  return row?.n ?? 0;
}

describe("calendar events: create, read, change, delete", () => {
  it("schedules a timed event with invitees and answers with the decoded Title", async () => {
    const body = eventBody(A(), scene.active, {
      label: "Frühschicht | Raum 2",
      Location: "Raum 2",
      Invitees: [scene.users.employee.id],
    });
    const event = await create("administrator", body);
    expect(event).toMatchObject({
      Title: body.Title,
      Label: "Frühschicht | Raum 2",
      Start: "2027-03-29T08:00:00.000Z",
      End: "2027-03-29T09:30:00.000Z",
      AllDay: false,
      Color: "#1d4ed8",
      Facility: { id: A(), name: scene.facilityA.name },
      Topic: { id: scene.active.topicId, name: "Hygiene" },
      Training: { id: scene.active.id, name: "Händehygiene", passive: false },
      Location: "Raum 2",
      Organiser: { id: scene.users.administrator.id },
      InviteeCount: 1,
      AttendedCount: 0,
      Started: false,
      CanEdit: true,
    });
    expect(event.Invitees).toEqual([
      expect.objectContaining({ id: scene.users.employee.id, colour: "red", expires_at: null, attended: null }),
    ]);

    const got = await api(ctx, token("supervisor"), "GET", `/api/calendar/events/${event.ID}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(event);
  });

  it("reads a date-time without an offset in the configured zone, and stores all-day events as whole days", async () => {
    const local = await create(
      "supervisor",
      eventBody(A(), scene.active, { Start: "2027-03-26T10:00", End: "2027-03-26T11:00" }),
    );
    // Before the change to summer time Berlin is UTC+1, after it UTC+2.
    expect(local.Start).toBe("2027-03-26T09:00:00.000Z");
    const allDay = await create(
      "administrator",
      eventBody(A(), scene.passive, { AllDay: true, Start: "2027-03-28", End: "2027-03-30" }),
    );
    expect(allDay).toMatchObject({ Start: "2027-03-28", End: "2027-03-30", AllDay: true });
    const [row] = await ctx.deps.database.db.select().from(calendarEvents).where(eq(calendarEvents.id, allDay.ID));
    // Midnight to midnight in Berlin, across the night the clocks go forward.
    expect(row?.startsAt.toISOString()).toBe("2027-03-27T23:00:00.000Z");
    expect(row?.endsAt.toISOString()).toBe("2027-03-29T22:00:00.000Z");
  });

  it("changes an event: times, label, facility by a Super-Admin, invitees kept or replaced", async () => {
    const event = await create(
      "administrator",
      eventBody(A(), scene.active, { Invitees: [scene.users.employee.id], Location: "Saal" }),
    );
    const second = await createUser(ctx, ["employee"], A());
    const changed = await api(ctx, token("supervisor"), "PUT", "/api/calendar/events", {
      ...eventBody(A(), scene.passive, { label: "Neu", Start: "2027-03-30T14:00:00Z", End: "2027-03-30T15:00:00Z" }),
      ID: event.ID,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      ID: event.ID,
      Label: "Neu",
      Start: "2027-03-30T14:00:00.000Z",
      Training: { id: scene.passive.id, passive: true },
      // Left out: no location; invitees unchanged.
      Location: null,
      InviteeCount: 1,
      Organiser: { id: scene.users.administrator.id },
    });

    const replaced = await api(ctx, token("administrator"), "PUT", "/api/calendar/events", {
      ...eventBody(A(), scene.passive, { Invitees: [second.id, second.id] }),
      ID: event.ID,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect((replaced.json() as CalendarEventDetail).Invitees.map((i) => i.id)).toEqual([second.id]);

    // A Super-Admin moves it to facility B: the invitees of A no longer fit.
    const move = { ...eventBody(B(), scene.passive), ID: event.ID };
    const refused = await api(ctx, token("contentmanager"), "PUT", "/api/calendar/events", move);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain(String(second.id));
    const moved = await api(ctx, token("contentmanager"), "PUT", "/api/calendar/events", {
      ...move,
      Invitees: [scene.users.employeeB.id],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ Facility: { id: B() }, InviteeCount: 1 });
    // Now it is facility B's: A's staff no longer see it.
    const gone = await api(ctx, token("administrator"), "GET", `/api/calendar/events/${event.ID}`);
    expect(gone.statusCode).toBe(404);
    const [row] = await ctx.deps.database.db.select().from(calendarEvents).where(eq(calendarEvents.id, event.ID));
    expect(row?.sequence).toBe(3);
  });

  it("deletes an event with its invitations", async () => {
    const event = await create("administrator", eventBody(A(), scene.active, { Invitees: [scene.users.employee.id] }));
    const res = await api(ctx, token("supervisor"), "DELETE", `/api/calendar/events/${event.ID}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await api(ctx, token("supervisor"), "GET", `/api/calendar/events/${event.ID}`)).statusCode).toBe(404);
    const left = await ctx.deps.database.db
      .select()
      .from(calendarInvitees)
      .where(eq(calendarInvitees.eventId, event.ID));
    expect(left).toEqual([]);
    expect((await api(ctx, token("supervisor"), "DELETE", `/api/calendar/events/${event.ID}`)).statusCode).toBe(404);
  });

  it("lists the events overlapping a range, soonest first", async () => {
    const late = await create(
      "administrator",
      eventBody(A(), scene.active, { Start: "2027-04-20T08:00:00Z", End: "2027-04-20T09:00:00Z" }),
    );
    const early = await create(
      "administrator",
      eventBody(A(), scene.active, { Start: "2027-04-05T08:00:00Z", End: "2027-04-05T09:00:00Z" }),
    );
    // Overlaps the range's start: it ends inside it.
    const spanning = await create(
      "administrator",
      eventBody(A(), scene.active, { AllDay: true, Start: "2027-03-31", End: "2027-04-02" }),
    );
    const list = async (query: string, who: keyof typeof scene.tokens = "administrator") => {
      const res = await api(ctx, token(who), "GET", `/api/calendar/events?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as CalendarEvent[]).map((e) => e.ID);
    };
    expect(await list("start=2027-04-01&end=2027-05-01")).toEqual([spanning.ID, early.ID, late.ID]);
    expect(await list("start=2027-04-02&end=2027-04-20")).toEqual([early.ID]);
    expect(await list("start=2027-04-02T00:00:00%2B02:00&end=2027-04-20T08:00:01Z")).toEqual([early.ID, late.ID]);
    // Facility B's administrator sees none of A's.
    expect(await list("start=2027-04-01&end=2027-05-01", "administratorB")).toEqual([]);
    // Super-Admins see every facility, or the one asked for.
    expect(await list("start=2027-04-01&end=2027-05-01", "contentmanager")).toEqual([spanning.ID, early.ID, late.ID]);
    expect(await list(`start=2027-04-01&end=2027-05-01&facility=${B()}`, "superchris")).toEqual([]);
    expect(await list(`start=2027-04-01&end=2027-05-01&facility=${A()}`, "administrator")).toEqual([
      spanning.ID,
      early.ID,
      late.ID,
    ]);
  });
});

describe("calendar events: bad input changes nothing", () => {
  const retiredTraining = async () => {
    const [row] = await ctx.deps.database.db
      .insert(trainings)
      .values({
        key: `alt-${crypto.randomUUID()}`,
        topicId: scene.active.topicId,
        name: "Alt",
        icon: "haende",
        passive: true,
        retired: true,
      })
      .returning({ id: trainings.id });
    return { id: row?.id ?? 0, topicId: scene.active.topicId, name: "Alt" };
  };

  type Case = [string, () => Promise<object> | object, number, ErrorCode, RegExp?];
  const cases: Case[] = [
    [
      "a Title that is no encoding",
      () => ({ ...eventBody(A(), scene.active), Title: "Brandschutz" }),
      400,
      ErrorCode.validation,
      /Title/,
    ],
    [
      "a Title with a word for an id",
      () => ({ ...eventBody(A(), scene.active), Title: "x|1|1|Kurs" }),
      400,
      ErrorCode.validation,
      /ids/,
    ],
    ["an unknown facility", () => eventBody(999_999, scene.active), 404, ErrorCode.facilityNotFound],
    ["another facility (bound actor)", () => eventBody(B(), scene.active), 404, ErrorCode.facilityNotFound],
    ["an unknown training", () => eventBody(A(), { ...scene.active, id: 999_999 }), 404, ErrorCode.trainingNotFound],
    ["a retired training", async () => eventBody(A(), await retiredTraining()), 404, ErrorCode.trainingNotFound],
    [
      "a training of another topic",
      () => eventBody(A(), { ...scene.active, topicId: scene.active.topicId + 1000 }),
      400,
      ErrorCode.validation,
      /not a training of topic/,
    ],
    [
      "End before Start",
      () => eventBody(A(), scene.active, { End: "2027-03-29T09:00:00+02:00" }),
      400,
      ErrorCode.validation,
      /End must lie after Start/,
    ],
    [
      "End equal to Start",
      () => eventBody(A(), scene.active, { End: "2027-03-29T10:00:00+02:00" }),
      400,
      ErrorCode.validation,
      /End must lie after Start/,
    ],
    [
      "an all-day event with times",
      () => eventBody(A(), scene.active, { AllDay: true }),
      400,
      ErrorCode.validation,
      /all-day event has dates, not times/,
    ],
    [
      "an all-day event ending on its first day",
      () => eventBody(A(), scene.active, { AllDay: true, Start: "2027-03-29", End: "2027-03-29" }),
      400,
      ErrorCode.validation,
      /day after its last day/,
    ],
    [
      "a timed event with dates only",
      () => eventBody(A(), scene.active, { Start: "2027-03-29", End: "2027-03-30" }),
      400,
      ErrorCode.validation,
      /not dates only/,
    ],
    [
      "an event longer than 31 days",
      () => eventBody(A(), scene.active, { AllDay: true, Start: "2027-03-01", End: "2027-04-02" }),
      400,
      ErrorCode.validation,
      /at most 31 days/,
    ],
    [
      "a date that does not exist",
      () => eventBody(A(), scene.active, { Start: "2027-02-30T10:00:00Z" }),
      400,
      ErrorCode.validation,
      /Start/,
    ],
    [
      "a date in words",
      () => eventBody(A(), scene.active, { Start: "March 29, 2027 10:00" }),
      400,
      ErrorCode.validation,
      /Start/,
    ],
    ["a colour that is none", () => eventBody(A(), scene.active, { Color: "red" }), 400, ErrorCode.validation, /Color/],
    ["an unknown field", () => ({ ...eventBody(A(), scene.active), Extra: 1 }), 400, ErrorCode.validation],
    [
      "an employee of another facility invited",
      () => eventBody(A(), scene.active, { Invitees: [scene.users.employeeB.id] }),
      400,
      ErrorCode.validation,
      /employees of the event's facility/,
    ],
    [
      "a supervisor invited",
      () => eventBody(A(), scene.active, { Invitees: [scene.users.supervisor.id] }),
      400,
      ErrorCode.validation,
      /employees/,
    ],
    [
      "a label longer than 200 characters",
      () => eventBody(A(), scene.active, { label: "x".repeat(201) }),
      400,
      ErrorCode.validation,
      /label/,
    ],
  ];

  it.each(cases)("POST with %s → %s", async (_name, body, status, code, message) => {
    const before = await eventCount();
    const res = await api(ctx, token("administrator"), "POST", "/api/calendar/events", await body());
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ error_code: code, status_code: status });
    if (message) expect(res.json().message).toMatch(message);
    expect(await eventCount()).toBe(before);
  });

  it("PUT checks the same and changes nothing on failure", async () => {
    const event = await create("administrator", eventBody(A(), scene.active, { label: "Stays" }));
    const put = (body: object) => api(ctx, token("administrator"), "PUT", "/api/calendar/events", body);
    const noId = await put(eventBody(A(), scene.active));
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message).toMatch(/ID/);
    expect((await put({ ...eventBody(A(), scene.active), ID: 999_999 })).json()).toMatchObject({
      error_code: ErrorCode.notFound,
      message: "Event not found",
      status_code: 404,
    });
    // A bound administrator cannot move an event into another facility.
    expect((await put({ ...eventBody(B(), scene.active), ID: event.ID })).json()).toMatchObject({
      error_code: ErrorCode.facilityNotFound,
      status_code: 404,
    });
    expect(
      (await put({ ...eventBody(A(), scene.active, { End: "2027-03-28T10:00:00Z" }), ID: event.ID })).statusCode,
    ).toBe(400);
    const got = await api(ctx, token("administrator"), "GET", `/api/calendar/events/${event.ID}`);
    expect(got.json()).toMatchObject({ Label: "Stays", Start: event.Start, End: event.End });
  });

  it.each([
    ["", /start/],
    ["start=2027-03-01", /end/],
    ["start=2027-03-01&end=2027-02-01", /end must lie after start/],
    ["start=2027-03-01&end=2027-03-01", /end must lie after start/],
    ["start=2027-01-01&end=2028-02-01", /at most 370 days/],
    ["start=gestern&end=2027-03-01", /start/],
    ["start=2027-13-01&end=2027-12-01", /start/],
  ])("GET /calendar/events?%s → 400", async (query, message) => {
    const res = await api(ctx, token("administrator"), "GET", `/api/calendar/events?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });
    expect(res.json().message).toMatch(message);
  });
});

describe("calendar events: roles and facilities", () => {
  let ofA: CalendarEventDetail;
  beforeAll(async () => {
    ofA = await create("supervisor", eventBody(A(), scene.active, { Invitees: [scene.users.employee.id] }));
  });

  it("answers staff of another facility with 404, never 403", async () => {
    const body = { ...eventBody(A(), scene.active), ID: ofA.ID };
    const calls = [
      ["GET", `/api/calendar/events/${ofA.ID}`, undefined],
      ["PUT", "/api/calendar/events", body],
      ["DELETE", `/api/calendar/events/${ofA.ID}`, undefined],
      ["PUT", `/api/calendar/events/${ofA.ID}/attendance`, { attended: [] }],
      ["GET", `/api/calendar/events/${ofA.ID}/ics`, undefined],
    ] as const;
    for (const [method, url, payload] of calls) {
      const res = await api(ctx, token("administratorB"), method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.notFound, message: "Event not found" });
    }
    const list = await api(
      ctx,
      token("administratorB"),
      "GET",
      `/api/calendar/events?start=2027-03-01&end=2027-04-01&facility=${A()}`,
    );
    expect(list.json()).toMatchObject({ error_code: ErrorCode.facilityNotFound, status_code: 404 });
    expect((await api(ctx, token("administratorB"), "GET", `/api/calendar/events/${ofA.ID}`)).statusCode).toBe(404);
  });

  it("lets Super-Admins see and plan every facility", async () => {
    for (const who of ["contentmanager", "superchris"] as const) {
      const got = await api(ctx, token(who), "GET", `/api/calendar/events/${ofA.ID}`);
      expect(got.statusCode).toBe(200);
      expect(got.json()).toMatchObject({ CanEdit: true });
      const made = await create(who, eventBody(B(), scene.active, { Invitees: [scene.users.employeeB.id] }));
      expect(made.Facility.id).toBe(B());
    }
  });

  it("refuses employees the staff calls with 403", async () => {
    const calls = [
      ["GET", "/api/calendar/events?start=2027-03-01&end=2027-04-01", undefined],
      ["GET", `/api/calendar/events/${ofA.ID}`, undefined],
      ["POST", "/api/calendar/events", eventBody(A(), scene.active)],
      ["PUT", "/api/calendar/events", { ...eventBody(A(), scene.active), ID: ofA.ID }],
      ["DELETE", `/api/calendar/events/${ofA.ID}`, undefined],
      ["GET", `/api/calendar/proposal?facility=${A()}&training=${scene.active.id}&start=2027-03-29`, undefined],
      ["PUT", `/api/calendar/events/${ofA.ID}/attendance`, { attended: [] }],
    ] as const;
    for (const [method, url, payload] of calls) {
      const res = await api(ctx, token("employee"), method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.forbidden, status_code: 403 });
    }
    expect((await api(ctx, null, "GET", `/api/calendar/events/${ofA.ID}`)).statusCode).toBe(401);
  });
});

describe("GET /calendar/mine", () => {
  it("lists the caller's invitations that have not ended, soonest first", async () => {
    const me = await createUser(ctx, ["employee"], A());
    const other = await createUser(ctx, ["employee"], A());
    const at = (day: number, hour: number) => berlin(2027, 6, day, hour).toISOString();
    const invite = (start: string, end: string, invitees: number[], label: string) =>
      create("administrator", eventBody(A(), scene.active, { Start: start, End: end, Invitees: invitees, label }));
    const later = await invite(at(20, 9), at(20, 10), [me.id], "later");
    const soon = await invite(at(10, 9), at(10, 10), [me.id, other.id], "soon");
    const running = await invite(at(1, 8), at(1, 12), [me.id], "running");
    await invite(at(1, 6), at(1, 7), [me.id], "over");
    await invite(at(5, 9), at(5, 10), [other.id], "not mine");

    const token = await tokenAt(ctx, me, berlin(2027, 6, 1, 9));
    const res = await api(ctx, token, "GET", "/api/calendar/mine");
    expect(res.statusCode).toBe(200);
    const mine = res.json() as MyEvent[];
    expect(mine.map((e) => e.ID)).toEqual([running.ID, soon.ID, later.ID]);
    expect(mine[1]).toEqual({
      ID: soon.ID,
      Label: "soon",
      Start: at(10, 9),
      End: at(10, 10),
      AllDay: false,
      Location: null,
      Facility: { id: A(), name: scene.facilityA.name },
      Topic: { id: scene.active.topicId, name: "Hygiene" },
      Training: { id: scene.active.id, name: "Händehygiene" },
    });
    ctx.clock.now = NOW;
  });

  it("answers the Title's encoding in one place (contract)", () => {
    expect(encodeEventTitle({ facility: 3, topic: 2, training: 11, label: "a|b" })).toBe("3|2|11|a|b");
  });
});
