import {
  formatDate,
  formatTime,
  NotificationMessageKey,
  REMINDER_HOUR,
  type ReminderStage,
  startOfDayAfter,
  timeOfDay,
  trainingAside,
} from "@carecampus/contract";
import { and, eq, gt, gte, inArray, lt, or } from "drizzle-orm";
import { currentMember, isCurrentMember } from "../access/scope";
import type { Db, Tx } from "../db/client";
import { calendarEvents, calendarInvitees, calendarReminders, preferences, users } from "../db/schema";
import { enqueueMail, mailQueued, type OutgoingMail } from "../mail/outbox";
import { fill, mailBody, mailLanguage, mailTexts } from "../mail/templates";
import { insertNotifications, type NewNotification } from "../notifications/service";
import { type EventRow, labelOf, selectEvents } from "./events";
import { icsFileName, renderIcs } from "./ics";
import { apiTimes } from "./times";

export const REMINDER_KEY = NotificationMessageKey.calendarReminder;

export interface ReminderResult {
  /** In-app reminders created. */
  reminders: number;
  /** E-mails queued in the outbox (sent by the mail sender job). */
  mails: number;
}

interface Recipient {
  eventId: number;
  userId: number;
  stage: ReminderStage;
}

/**
 * The calendar reminder run (ARCHITECTURE decision 7), hourly: from REMINDER_HOUR on in the
 * configured TIME_ZONE, 'tomorrow' for the events that start on the next calendar day and
 * 'today' for those of today that have not begun (all-day ones: all day), to every invitee and
 * the organiser. What was sent is recorded in the same transaction (calendar_reminders), so
 * a second run, or a second server, sends nothing twice; a run after downtime sends what is
 * due then, never a 'tomorrow' for an event that is already today, nothing for past events.
 * Mails, with the event as an .ics file, go to the outbox in each recipient's language.
 */
export async function runCalendarReminders(
  deps: { database: { db: Db }; config: { timeZone: string } },
  now: Date,
): Promise<ReminderResult> {
  const zone = deps.config.timeZone;
  if (timeOfDay(now, zone).hour < REMINDER_HOUR) return { reminders: 0, mails: 0 };
  return remind(deps.database.db, zone, now);
}

/**
 * An event planned or moved to today or tomorrow is announced at once, at any hour: the staff
 * member's action is the occasion, and the hourly run would only send it later. Idempotent
 * with the run (the same claims).
 */
export async function remindOfEvent(
  deps: { db: Db; zone: string; now: () => Date },
  eventId: number,
): Promise<ReminderResult> {
  return remind(deps.db, deps.zone, deps.now(), eventId);
}

async function remind(db: Db, zone: string, now: Date, eventId?: number): Promise<ReminderResult> {
  const today = startOfDayAfter(now, 0, zone);
  const tomorrow = startOfDayAfter(now, 1, zone);
  const outcome = await db.transaction(async (tx) => {
    const events = await selectEvents(
      tx,
      and(
        eventId === undefined ? undefined : eq(calendarEvents.id, eventId),
        gte(calendarEvents.startsAt, today),
        lt(calendarEvents.startsAt, startOfDayAfter(now, 2, zone)),
        // Begun is too late for a reminder; an all-day event is announced all through its day.
        or(gt(calendarEvents.startsAt, now), eq(calendarEvents.allDay, true)),
      ),
    );
    if (events.length === 0) return { reminders: 0, mails: 0 };
    const stageOf = (e: EventRow): ReminderStage => (e.startsAt.getTime() >= tomorrow.getTime() ? "tomorrow" : "today");
    const due = await claimReminders(tx, events, stageOf, now);
    if (due.length === 0) return { reminders: 0, mails: 0 };
    const byId = new Map(events.map((e) => [e.id, e]));
    const people = await recipients(
      tx,
      due.map((d) => d.userId),
    );
    await insertNotifications(
      tx,
      due.map((d): NewNotification => {
        const event = byId.get(d.eventId) as EventRow;
        return {
          userId: d.userId,
          type: "CALENDAR_EVENT_REMINDER",
          message: { key: REMINDER_KEY, values: reminderValues(event, d.stage, zone) },
          expiresAt: event.endsAt,
        };
      }),
    );
    const mails = due.flatMap((d) => {
      const person = people.get(d.userId);
      return person?.email ? [reminderMail(byId.get(d.eventId) as EventRow, d.stage, person, zone)] : [];
    });
    return { reminders: due.length, mails: await enqueueMail(tx, mails, now) };
  });
  if (outcome.mails > 0) mailQueued();
  return outcome;
}

/**
 * Records the (event, recipient, stage) reminders not sent yet and answers with exactly those:
 * the primary key decides, so two runs at once cannot both claim one.
 */
async function claimReminders(
  tx: Tx,
  events: readonly EventRow[],
  stageOf: (e: EventRow) => ReminderStage,
  now: Date,
): Promise<Recipient[]> {
  const ids = events.map((e) => e.id);
  const invitees = await tx
    .select({ eventId: calendarInvitees.eventId, userId: calendarInvitees.userId })
    .from(calendarInvitees)
    .where(and(inArray(calendarInvitees.eventId, ids), isCurrentMember(calendarInvitees.userId)));
  // A former employee is reminded of nothing, as invitee or organiser (issue 28).
  const organiserIds = [...new Set(events.flatMap((e) => (e.organiserId === null ? [] : [e.organiserId])))];
  const currentOrganisers =
    organiserIds.length === 0
      ? new Set<number>()
      : new Set(
          (
            await tx
              .select({ id: users.id })
              .from(users)
              .where(and(inArray(users.id, organiserIds), currentMember))
          ).map((r) => r.id),
        );
  const organisers = events.flatMap((e) =>
    e.organiserId === null || !currentOrganisers.has(e.organiserId) ? [] : [{ eventId: e.id, userId: e.organiserId }],
  );
  const stages = new Map(events.map((e) => [e.id, stageOf(e)]));
  const seen = new Set<string>();
  const wanted = [...invitees, ...organisers].flatMap((r) => {
    const key = `${r.eventId}:${r.userId}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ ...r, stage: stages.get(r.eventId) as ReminderStage, sentAt: now }];
  });
  const claimed: Recipient[] = [];
  for (let i = 0; i < wanted.length; i += 1_000) {
    const rows = await tx
      .insert(calendarReminders)
      .values(wanted.slice(i, i + 1_000))
      .onConflictDoNothing()
      .returning({
        eventId: calendarReminders.eventId,
        userId: calendarReminders.userId,
        stage: calendarReminders.stage,
      });
    claimed.push(...rows.map((r) => ({ ...r, stage: r.stage as ReminderStage })));
  }
  return claimed;
}

interface Person {
  email: string | null;
  name: string;
  surname: string;
  preference: string | null;
}

async function recipients(tx: Tx, userIds: readonly number[]): Promise<Map<number, Person>> {
  const rows = await tx
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      surname: users.surname,
      preference: preferences.language,
    })
    .from(users)
    .leftJoin(preferences, eq(preferences.userId, users.id))
    .where(inArray(users.id, [...new Set(userIds)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The values of the stored message (contract: NotificationMessageKey.calendarReminder). */
function reminderValues(e: EventRow, stage: ReminderStage, zone: string): Record<string, string> {
  return {
    stage,
    label: labelOf(e),
    training: e.training,
    facility: e.facility,
    start: apiTimes(e, zone).Start,
    allDay: String(e.allDay),
    location: e.location ?? "",
    eventId: String(e.id),
    topicId: String(e.topicId),
    trainingId: String(e.trainingId),
  };
}

/** The reminder as a mail in the recipient's language, the event attached as an .ics file. */
function reminderMail(e: EventRow, stage: ReminderStage, person: Person, zone: string): OutgoingMail {
  const language = mailLanguage(person.preference);
  const texts = mailTexts(language);
  const part = texts.calendarReminder;
  // An all-day event starts at midnight in the zone: its date is that day's.
  const date = formatDate(e.startsAt, zone);
  const when = e.allDay ? fill(part.allDay, { date }) : `${date} ${formatTime(e.startsAt, zone)}`;
  const label = labelOf(e);
  const values = { label, trainingAside: trainingAside(label, e.training), when, location: e.location ?? "" };
  const lines = [fill(texts.greeting, { name: person.name, surname: person.surname }), "", fill(part.text, values)];
  if (e.location) lines.push(fill(part.location, values));
  lines.push("", part.attachment);
  return {
    to: [person.email as string],
    subject: fill(stage === "tomorrow" ? part.subjectTomorrow : part.subjectToday, values),
    text: mailBody(language, lines),
    attachments: [
      {
        filename: icsFileName(e.id),
        contentType: "text/calendar; charset=utf-8",
        content: renderIcs([e], zone),
      },
    ],
  };
}
