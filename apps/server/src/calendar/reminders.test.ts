import { type CalendarEventDetail, REMINDER_HOUR } from "@carecampus/contract";
import { and, eq } from "drizzle-orm";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { api, berlin, type CalendarScene, eventBody, tokenAt, useCalendarScene } from "../../test/calendar";
import { createFacility, createUser, type TestContext, type TestUser } from "../../test/helpers";
import { mailOutbox, notifications, preferences } from "../db/schema";
import { REMINDER_KEY, runCalendarReminders } from "./reminders";

const NOW = berlin(2027, 3, 1, 10);
let ctx: TestContext;
let scene: CalendarScene;
useCalendarScene(NOW, (c, s) => {
  ctx = c;
  scene = s;
});

/** Runs the job at a wall-clock time of the configured zone. */
const runAt = (at: Date) => {
  ctx.clock.now = at;
  return runCalendarReminders(ctx.deps, at);
};

interface Message {
  key: string;
  values: Record<string, string>;
}

async function remindersOf(user: TestUser) {
  const rows = await ctx.deps.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, user.id), eq(notifications.type, "CALENDAR_EVENT_REMINDER")))
    .orderBy(notifications.id);
  return rows.map((r) => ({ ...r, message: r.customMessage as Message }));
}

/** The one mail queued to `address`. */
async function mailTo(address: string) {
  const rows = await ctx.deps.database.db.select().from(mailOutbox).orderBy(mailOutbox.id);
  const mine = rows.filter((m) => m.recipients.includes(address));
  expect(mine).toHaveLength(1);
  return mine[0];
}

const stagesOf = async (user: TestUser) => (await remindersOf(user)).map((r) => r.message.values.stage);

/** A facility of its own: an administrator (the organiser) and two employees, one reading English mail. */
async function createScene() {
  const facility = await createFacility(ctx);
  const mail = { admin: `chef.${facility.id}@example.org`, english: `en.${facility.id}@example.org` };
  const admin = await createUser(ctx, ["administrator"], facility.id, { email: mail.admin });
  const english = await createUser(ctx, ["employee"], facility.id, { email: mail.english });
  const quiet = await createUser(ctx, ["employee"], facility.id);
  const bystander = await createUser(ctx, ["employee"], facility.id);
  await ctx.deps.database.db.update(preferences).set({ language: "en" }).where(eq(preferences.userId, english.id));
  return { facility, admin, english, quiet, bystander, mail };
}

type Scene = Awaited<ReturnType<typeof createScene>>;

async function schedule(s: Scene, body: Partial<Parameters<typeof eventBody>[2]>, at = NOW) {
  const token = await tokenAt(ctx, s.admin, at);
  const res = await api(
    ctx,
    token,
    "POST",
    "/api/calendar/events",
    eventBody(s.facility.id, scene.passive, { Invitees: [s.english.id, s.quiet.id], label: "Reanimation", ...body }),
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CalendarEventDetail;
}

describe("the calendar reminder job", () => {
  it("reminds invitees and the organiser the day before and on the morning, once each", async () => {
    const s = await createScene();
    const event = await schedule(s, {
      Start: "2027-04-13T10:00:00+02:00",
      End: "2027-04-13T12:00:00+02:00",
      Location: "Saal 1",
    });
    const everyone = [s.admin, s.english, s.quiet];

    // The day before, before REMINDER_HOUR: nothing yet.
    expect(await runAt(berlin(2027, 4, 12, REMINDER_HOUR - 1, 59))).toEqual({ reminders: 0, mails: 0 });
    expect(await runAt(berlin(2027, 4, 12, REMINDER_HOUR))).toEqual({ reminders: 3, mails: 2 });
    // Again in the same hour and the next: nothing twice.
    expect(await runAt(berlin(2027, 4, 12, REMINDER_HOUR))).toEqual({ reminders: 0, mails: 0 });
    expect(await runAt(berlin(2027, 4, 12, 23))).toEqual({ reminders: 0, mails: 0 });
    for (const user of everyone) expect(await stagesOf(user)).toEqual(["tomorrow"]);
    expect(await remindersOf(s.bystander)).toEqual([]);

    const [reminder] = await remindersOf(s.quiet);
    expect(reminder?.expiresAt?.toISOString()).toBe("2027-04-13T10:00:00.000Z");
    expect(reminder?.message).toEqual({
      key: REMINDER_KEY,
      values: {
        stage: "tomorrow",
        label: "Reanimation",
        training: "Reanimationskurs",
        facility: s.facility.name,
        start: "2027-04-13T08:00:00.000Z",
        allDay: "false",
        location: "Saal 1",
        eventId: String(event.ID),
        topicId: String(scene.passive.topicId),
        trainingId: String(scene.passive.id),
      },
    });

    // The morning of the event, then after it began: the 'today' reminder once.
    expect(await runAt(berlin(2027, 4, 13, 5))).toEqual({ reminders: 0, mails: 0 });
    expect(await runAt(berlin(2027, 4, 13, 7))).toEqual({ reminders: 3, mails: 2 });
    expect(await runAt(berlin(2027, 4, 13, 9))).toEqual({ reminders: 0, mails: 0 });
    expect(await runAt(berlin(2027, 4, 13, 11))).toEqual({ reminders: 0, mails: 0 });
    for (const user of everyone) expect(await stagesOf(user)).toEqual(["tomorrow", "today"]);

    // The reminders reach the invitee's bell through the API.
    const token = await tokenAt(ctx, s.english, berlin(2027, 4, 13, 9));
    const bell = await api(ctx, token, "GET", "/api/notifications");
    expect((bell.json() as { Type: string }[]).map((n) => n.Type)).toEqual([
      "CALENDAR_EVENT_REMINDER",
      "CALENDAR_EVENT_REMINDER",
    ]);
  });

  it("names an event without a label of its own by its training, once", async () => {
    const s = await createScene();
    await schedule(s, { Start: "2027-05-04T14:30:00+02:00", End: "2027-05-04T16:00:00+02:00", label: "" });
    await runAt(berlin(2027, 5, 3, 8));
    const german = await mailTo(s.mail.admin);
    expect(german?.text).toContain("Sie sind zur Schulung „Reanimationskurs“ eingeladen: 04.05.2027 14:30.");
    expect(german?.text).not.toContain("(Reanimationskurs)");
  });

  it("queues the mail in each recipient's language with the event attached as .ics", async () => {
    const s = await createScene();
    const event = await schedule(s, {
      Start: "2027-05-04T14:30:00+02:00",
      End: "2027-05-04T16:00:00+02:00",
      Location: "Saal 2",
    });
    await runAt(berlin(2027, 5, 3, 8));
    const english = await mailTo(s.mail.english);
    const german = await mailTo(s.mail.admin);
    expect(english?.subject).toBe("CareCampus: “Reanimation” tomorrow");
    expect(english?.text).toContain(
      "You are invited to the training “Reanimation” (Reanimationskurs): 04.05.2027 14:30.",
    );
    expect(english?.text).toContain("Place: Saal 2");
    expect(german?.subject).toBe("CareCampus: morgen „Reanimation“");
    expect(german?.text).toContain(
      "Sie sind zur Schulung „Reanimation“ (Reanimationskurs) eingeladen: 04.05.2027 14:30.",
    );
    expect(german?.text).toContain("Der Termin hängt als Kalenderdatei (.ics) an.");
    for (const mail of [english, german]) {
      expect(mail?.status).toBe("pending");
      expect(mail?.attachments).toHaveLength(1);
      const [file] = mail?.attachments ?? [];
      expect(file).toMatchObject({ filename: `event-${event.ID}.ics`, contentType: "text/calendar; charset=utf-8" });
      const vevent = new ICAL.Component(ICAL.parse(file?.content ?? "")).getFirstSubcomponent("vevent");
      if (!vevent) throw new Error("no VEVENT in the attachment");
      const parsed = new ICAL.Event(vevent);
      expect(parsed.uid).toBe(`event-${event.ID}@carecampus`);
      expect(parsed.startDate.toJSDate().toISOString()).toBe("2027-05-04T12:30:00.000Z");
      expect(parsed.location).toBe("Saal 2");
    }
  });

  it("catches up after downtime: never 'tomorrow' for today's event, nothing for what has begun", async () => {
    const s = await createScene();
    const morning = await schedule(s, { Start: "2027-06-08T08:00:00+02:00", End: "2027-06-08T09:00:00+02:00" });
    const afternoon = await schedule(s, { Start: "2027-06-08T15:00:00+02:00", End: "2027-06-08T16:00:00+02:00" });
    // Down from the 6th to 10:00 on the 8th: the morning event has begun, the afternoon one is today.
    await runAt(berlin(2027, 6, 8, 10));
    const reminders = await remindersOf(s.quiet);
    expect(reminders.map((r) => [r.message.values.eventId, r.message.values.stage])).toEqual([
      [String(afternoon.ID), "today"],
    ]);
    expect(reminders.some((r) => r.message.values.eventId === String(morning.ID))).toBe(false);
    // Past events get nothing, whenever the job runs.
    await runAt(berlin(2027, 6, 9, 7));
    expect(await remindersOf(s.quiet)).toHaveLength(1);
  });

  it("reminds of an all-day event all day on its day, and again after it was moved", async () => {
    const s = await createScene();
    const event = await schedule(s, { AllDay: true, Start: "2027-07-06", End: "2027-07-07" });
    await runAt(berlin(2027, 7, 6, 18));
    const [today] = await remindersOf(s.english);
    expect(today?.message.values).toMatchObject({ stage: "today", start: "2027-07-06", allDay: "true", location: "" });
    expect(today?.expiresAt?.toISOString()).toBe("2027-07-06T22:00:00.000Z");
    const mail = await mailTo(s.mail.english);
    expect(mail?.subject).toBe("CareCampus: “Reanimation” today");
    expect(mail?.text).toContain("(Reanimationskurs): 06.07.2027, all day.");

    // Moved to the next week: the reminders start over for the new date.
    const token = await tokenAt(ctx, s.admin, berlin(2027, 7, 6, 18));
    const moved = await api(ctx, token, "PUT", "/api/calendar/events", {
      ...eventBody(s.facility.id, scene.passive, {
        AllDay: true,
        Start: "2027-07-13",
        End: "2027-07-14",
        label: "Reanimation",
      }),
      ID: event.ID,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await runAt(berlin(2027, 7, 12, 6));
    expect(await stagesOf(s.english)).toEqual(["today", "tomorrow"]);
  });

  it("reaches nobody outside the event: other facilities' people hear nothing", async () => {
    const a = await createScene();
    const b = await createScene();
    await schedule(a, { Start: "2027-08-03T10:00:00+02:00", End: "2027-08-03T11:00:00+02:00" });
    expect(await runAt(berlin(2027, 8, 2, 12))).toEqual({ reminders: 3, mails: 2 });
    for (const user of [b.admin, b.english, b.quiet, b.bystander, a.bystander]) {
      expect(await remindersOf(user)).toEqual([]);
    }
    expect(await remindersOf(scene.users.employeeB)).toEqual([]);
  });

  it("announces an event planned for tomorrow at once, even at night, and the hourly run adds nothing", async () => {
    const s = await createScene();
    const night = berlin(2027, 9, 7, 2);
    ctx.clock.now = night;
    await schedule(s, { Start: "2027-09-08T10:00:00+02:00", End: "2027-09-08T11:00:00+02:00" }, night);
    expect(await stagesOf(s.english)).toEqual(["tomorrow"]);
    expect(await stagesOf(s.admin)).toEqual(["tomorrow"]);
    expect(await stagesOf(s.bystander)).toEqual([]);
    expect(await runAt(berlin(2027, 9, 7, 9))).toEqual({ reminders: 0, mails: 0 });
    // One planned for next week waits for the run of the day before.
    await schedule(s, { Start: "2027-09-14T10:00:00+02:00", End: "2027-09-14T11:00:00+02:00" }, night);
    expect(await stagesOf(s.english)).toEqual(["tomorrow"]);
  });
});
