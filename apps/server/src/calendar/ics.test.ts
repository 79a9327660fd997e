import { type CalendarEventDetail, ErrorCode, formatTime } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { api, berlin, type CalendarScene, eventBody, tokenAt, useCalendarScene, ZONE } from "../../test/calendar";
import { bearer, createUser, login, PASSWORD, type TestContext } from "../../test/helpers";
import { calendarFeeds } from "../db/schema";
import { setGeneratedPassword } from "../users/service";

const NOW = berlin(2027, 3, 1, 10);
let ctx: TestContext;
let scene: CalendarScene;
useCalendarScene(NOW, (c, s) => {
  ctx = c;
  scene = s;
});

/** The VEVENTs of an iCalendar text, read by ical.js (a parser of its own, not ours). */
function parseEvents(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents("vevent").map((v) => {
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      summary: e.summary,
      sequence: e.sequence,
      location: e.location,
      isDate: e.startDate.isDate,
      start: e.startDate,
      end: e.endDate,
      alarms: v.getAllSubcomponents("valarm").map((a) => ({
        action: a.getFirstPropertyValue("action"),
        trigger: String(a.getFirstPropertyValue("trigger")),
        description: a.getFirstPropertyValue("description"),
      })),
    };
  });
}

async function create(body: object, who: "administrator" | "supervisor" = "administrator") {
  const res = await api(ctx, scene.tokens[who], "POST", "/api/calendar/events", body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CalendarEventDetail;
}

describe("GET /calendar/events/{id}/ics", () => {
  it("writes events a real parser reads back at the right times across the change to summer time", async () => {
    const A = scene.facilityA.id;
    // Berlin is UTC+1 until 28 March 2027, UTC+2 from then on.
    const winter = await create(
      eventBody(A, scene.active, { label: "Winter", Start: "2027-03-26T10:00", End: "2027-03-26T11:00" }),
    );
    const summer = await create(
      eventBody(A, scene.active, { label: "Sommer", Start: "2027-03-29T10:00", End: "2027-03-29T11:00" }),
    );
    const allDay = await create(
      eventBody(A, scene.passive, {
        label: "",
        AllDay: true,
        Start: "2027-03-28",
        End: "2027-03-30",
        Location: "Aula",
      }),
    );
    const file = async (id: number) => {
      const res = await api(ctx, scene.tokens.supervisor, "GET", `/api/calendar/events/${id}/ics`);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
      expect(res.headers["content-disposition"]).toBe(`attachment; filename="event-${id}.ics"`);
      const [event] = parseEvents(res.body);
      if (!event) throw new Error("no event in the file");
      return event;
    };

    const w = await file(winter.ID);
    expect(w.uid).toBe(`event-${winter.ID}@carecampus`);
    expect(w.summary).toBe("Winter");
    expect(w.start.toJSDate().toISOString()).toBe("2027-03-26T09:00:00.000Z");
    expect(formatTime(w.start.toJSDate(), ZONE)).toBe("10:00");
    // A calendar app reminds an hour before a timed event.
    expect(w.alarms).toEqual([{ action: "DISPLAY", trigger: "-PT1H", description: "Winter" }]);
    const s = await file(summer.ID);
    expect(s.start.toJSDate().toISOString()).toBe("2027-03-29T08:00:00.000Z");
    expect(s.end.toJSDate().toISOString()).toBe("2027-03-29T09:00:00.000Z");
    expect(formatTime(s.start.toJSDate(), ZONE)).toBe("10:00");

    const d = await file(allDay.ID);
    // DATE values: the days themselves, End exclusive; an empty label shows the training.
    expect(d).toMatchObject({ isDate: true, summary: "Reanimationskurs", location: "Aula" });
    expect(d.start.toString()).toBe("2027-03-28");
    expect(d.end.toString()).toBe("2027-03-30");
    // … and at 09:00 the day before an all-day one.
    expect(d.alarms).toEqual([{ action: "DISPLAY", trigger: "-PT15H", description: "Reanimationskurs" }]);
  });

  it("keeps the UID and raises SEQUENCE when the event changes", async () => {
    const event = await create(eventBody(scene.facilityA.id, scene.active));
    const before = parseEvents(
      (await api(ctx, scene.tokens.administrator, "GET", `/api/calendar/events/${event.ID}/ics`)).body,
    );
    const put = await api(ctx, scene.tokens.administrator, "PUT", "/api/calendar/events", {
      ...eventBody(scene.facilityA.id, scene.active, {
        Start: "2027-03-29T12:00:00+02:00",
        End: "2027-03-29T13:00:00+02:00",
      }),
      ID: event.ID,
    });
    expect(put.statusCode).toBe(200);
    const after = parseEvents(
      (await api(ctx, scene.tokens.administrator, "GET", `/api/calendar/events/${event.ID}/ics`)).body,
    );
    expect(after[0]?.uid).toBe(before[0]?.uid);
    expect(after[0]?.sequence).toBe((before[0]?.sequence ?? 0) + 1);
    expect(after[0]?.start.toJSDate().toISOString()).toBe("2027-03-29T10:00:00.000Z");
  });

  it("is for the invitees and the staff who see the event, with the token in the query", async () => {
    const invitee = await createUser(ctx, ["employee"], scene.facilityA.id);
    const event = await create(eventBody(scene.facilityA.id, scene.active, { Invitees: [invitee.id] }), "supervisor");
    const url = `/api/calendar/events/${event.ID}/ics`;
    const inviteeToken = await tokenAt(ctx, invitee, NOW);
    const byQuery = await api(ctx, null, "GET", `${url}?token=${inviteeToken}`);
    expect(byQuery.statusCode).toBe(200);
    expect(parseEvents(byQuery.body)[0]?.uid).toBe(`event-${event.ID}@carecampus`);
    for (const who of ["contentmanager", "superchris", "administrator"] as const) {
      expect((await api(ctx, scene.tokens[who], "GET", url)).statusCode, who).toBe(200);
    }
    // An employee not invited, and staff of another facility: no such event.
    for (const who of ["employee", "employeeB", "administratorB"] as const) {
      const res = await api(ctx, scene.tokens[who], "GET", url);
      expect(res.statusCode, who).toBe(404);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.notFound, status_code: 404 });
    }
    expect((await api(ctx, null, "GET", url)).statusCode).toBe(401);
    expect((await api(ctx, scene.tokens.administrator, "GET", "/api/calendar/events/999999/ics")).statusCode).toBe(404);
  });
});

describe("the personal iCalendar subscription", () => {
  it("shows the owner's invitations from 30 days ago on, and the events staff organise", async () => {
    const me = await createUser(ctx, ["employee"], scene.facilityA.id);
    const colleague = await createUser(ctx, ["employee"], scene.facilityA.id);
    const at = (month: number, day: number) => ({
      Start: berlin(2027, month, day, 9).toISOString(),
      End: berlin(2027, month, day, 10).toISOString(),
    });
    const A = scene.facilityA.id;
    const old = await create(eventBody(A, scene.active, { ...at(1, 20), label: "old", Invitees: [me.id] }));
    const recent = await create(eventBody(A, scene.active, { ...at(2, 10), label: "recent", Invitees: [me.id] }));
    const coming = await create(
      eventBody(A, scene.active, { ...at(4, 1), label: "coming", Invitees: [me.id, colleague.id] }),
    );
    const notMine = await create(
      eventBody(A, scene.active, { ...at(4, 2), label: "not mine", Invitees: [colleague.id] }),
    );

    const token = await tokenAt(ctx, me, NOW);
    expect((await api(ctx, token, "GET", "/api/calendar/feed")).json()).toEqual({ url: null, active: false });
    const made = await api(ctx, token, "POST", "/api/calendar/feed");
    expect(made.statusCode).toBe(200);
    const { url } = made.json() as { url: string };
    expect(url).toMatch(/^\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(made.json()).toMatchObject({ active: true });
    // Only the hash is kept: the URL cannot be shown again, but it is known to exist.
    expect((await api(ctx, token, "GET", "/api/calendar/feed")).json()).toEqual({ url: null, active: true });
    const [stored] = await ctx.deps.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, me.id));
    expect(stored?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(url).not.toContain(stored?.secretHash ?? "-");

    const feed = await api(ctx, null, "GET", url);
    expect(feed.statusCode).toBe(200);
    expect(feed.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    const uids = parseEvents(feed.body).map((e) => e.uid);
    expect(uids).toEqual([`event-${recent.ID}@carecampus`, `event-${coming.ID}@carecampus`]);
    expect(uids).not.toContain(`event-${old.ID}@carecampus`);
    expect(uids).not.toContain(`event-${notMine.ID}@carecampus`);

    // The organiser's own feed shows what they organise.
    const adminToken = await tokenAt(ctx, scene.users.administrator, NOW);
    const adminUrl = (await api(ctx, adminToken, "POST", "/api/calendar/feed")).json().url as string;
    const organised = parseEvents((await api(ctx, null, "GET", adminUrl)).body).map((e) => e.uid);
    expect(organised).toEqual(
      expect.arrayContaining([`event-${coming.ID}@carecampus`, `event-${notMine.ID}@carecampus`]),
    );
    expect(organised).not.toContain(`event-${old.ID}@carecampus`);
  });

  it("refuses a wrong, replaced or revoked secret with 404, and a malformed one with 400", async () => {
    const me = await createUser(ctx, ["employee"], scene.facilityA.id);
    const token = await tokenAt(ctx, me, NOW);
    const first = (await api(ctx, token, "POST", "/api/calendar/feed")).json().url as string;
    expect((await api(ctx, null, "GET", first)).statusCode).toBe(200);

    const wrong = await api(ctx, null, "GET", `/api/calendar/feed/${"A".repeat(43)}.ics`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ error_code: ErrorCode.notFound, status_code: 404 });
    const malformed = await api(ctx, null, "GET", "/api/calendar/feed/short.ics");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });

    // A new URL replaces the old one.
    const second = (await api(ctx, token, "POST", "/api/calendar/feed")).json().url as string;
    expect(second).not.toBe(first);
    expect((await api(ctx, null, "GET", first)).statusCode).toBe(404);
    expect((await api(ctx, null, "GET", second)).statusCode).toBe(200);

    const revoked = await api(ctx, token, "DELETE", "/api/calendar/feed");
    expect(revoked.json()).toEqual({ url: null, active: false });
    const gone = await api(ctx, null, "GET", second);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error_code: ErrorCode.notFound, message: "Calendar feed not found" });
    expect((await api(ctx, token, "GET", "/api/calendar/feed")).json()).toEqual({ url: null, active: false });
    // Managing the feed needs a session.
    expect((await api(ctx, null, "POST", "/api/calendar/feed")).statusCode).toBe(401);
  });
});

describe("the subscription after a password change or reset", () => {
  const patch = (url: string, token: string, payload: object) =>
    ctx.app.inject({ method: "PATCH", url, headers: bearer(token), payload });

  /** A user with a working feed address: the user, and the address. */
  async function withFeed() {
    const me = await createUser(ctx, ["employee"], scene.facilityA.id);
    const token = await tokenAt(ctx, me, NOW);
    const url = (await api(ctx, token, "POST", "/api/calendar/feed")).json().url as string;
    expect((await api(ctx, null, "GET", url)).statusCode).toBe(200);
    return { me, url };
  }

  /** The old address answers like an unknown one; a new one can be made and works. */
  async function expectRevoked(url: string, newPassword: string, who: { login: string }) {
    const gone = await api(ctx, null, "GET", url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error_code: ErrorCode.notFound, message: "Calendar feed not found" });
    const token = await login(ctx, who.login, newPassword);
    expect((await api(ctx, token, "GET", "/api/calendar/feed")).json()).toEqual({ url: null, active: false });
    const fresh = (await api(ctx, token, "POST", "/api/calendar/feed")).json().url as string;
    expect(fresh).not.toBe(url);
    expect((await api(ctx, null, "GET", fresh)).statusCode).toBe(200);
  }

  it("ends the address when the user changes their own password", async () => {
    const { me, url } = await withFeed();
    const token = await login(ctx, me.login);
    const changed = await patch(`/api/auth/users/${me.id}`, token, {
      property: "password",
      value: { password: PASSWORD, new_password: "Neu-Pass1!" },
    });
    expect(changed.statusCode).toBe(200);
    await expectRevoked(url, "Neu-Pass1!", me);
  });

  it("keeps the address when the own password change is refused", async () => {
    const { me, url } = await withFeed();
    const token = await login(ctx, me.login);
    const refused = await patch(`/api/auth/users/${me.id}`, token, {
      property: "password",
      value: { password: "Nope-1234!", new_password: "Neu-Pass1!" },
    });
    expect(refused.statusCode).toBe(400);
    expect((await api(ctx, null, "GET", url)).statusCode).toBe(200);
  });

  it("ends the address when an administrator sets a new password (the forgot-password way)", async () => {
    const { me, url } = await withFeed();
    // Another change by the administrator leaves it alone.
    const admin = `/api/auth/admin/users/${me.id}`;
    const renamed = await patch(admin, scene.tokens.administrator, { name: "Renamed" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await api(ctx, null, "GET", url)).statusCode).toBe(200);
    const reset = await patch(admin, scene.tokens.administrator, { password: "Neu-Pass-2!" });
    expect(reset.statusCode, reset.body).toBe(200);
    await expectRevoked(url, "Neu-Pass-2!", me);
  });

  it("ends the address when npm run admin:reset-password gives a new password", async () => {
    const { me, url } = await withFeed();
    const issued = await setGeneratedPassword(ctx.deps.database.db, me.id);
    expect(issued?.login).toBe(me.login);
    await expectRevoked(url, issued?.password ?? "", me);
  });
});
