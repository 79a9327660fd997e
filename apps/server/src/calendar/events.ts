import {
  type CalendarEvent,
  type CalendarEventDetail,
  encodeEventTitle,
  expiryColourer,
  type Invitee,
} from "@carecampus/contract";
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Actor, decide } from "../access/policy";
import { validCertificate } from "../db/certificates";
import type { Db, Tx } from "../db/client";
import { calendarEvents, calendarInvitees, certificates, facilities, topics, trainings, users } from "../db/schema";
import { apiTimes } from "./times";

/*
 * Reading events as the API shows them: the queries behind every answer of the calendar,
 * shared by the event calls, attendance and the iCalendar files.
 */

const organisers = alias(users, "organisers");

const eventColumns = {
  id: calendarEvents.id,
  facilityId: calendarEvents.facilityId,
  facility: facilities.name,
  topicId: calendarEvents.topicId,
  topic: topics.name,
  trainingId: calendarEvents.trainingId,
  training: trainings.name,
  passive: trainings.passive,
  label: calendarEvents.label,
  location: calendarEvents.location,
  color: calendarEvents.color,
  allDay: calendarEvents.allDay,
  startsAt: calendarEvents.startsAt,
  endsAt: calendarEvents.endsAt,
  sequence: calendarEvents.sequence,
  updatedAt: calendarEvents.updatedAt,
  organiserId: calendarEvents.organiserId,
  organiserName: organisers.name,
  organiserSurname: organisers.surname,
  inviteeCount: sql<number>`(select count(*)::int from ${calendarInvitees} ci where ci."event_id" = ${calendarEvents.id})`,
  attendedCount: sql<number>`(select count(*)::int from ${calendarInvitees} ci where ci."event_id" = ${calendarEvents.id} and ci."attended")`,
};

/** One stored event with the names around it. */
export type EventRow = Awaited<ReturnType<typeof selectEvents>>[number];

/** Events matching `where`, soonest first, with their facility, topic, training and organiser. */
export function selectEvents(db: Db | Tx, where: SQL | undefined, limit?: number) {
  const query = db
    .select(eventColumns)
    .from(calendarEvents)
    .innerJoin(facilities, eq(facilities.id, calendarEvents.facilityId))
    .innerJoin(topics, eq(topics.id, calendarEvents.topicId))
    .innerJoin(trainings, eq(trainings.id, calendarEvents.trainingId))
    .leftJoin(organisers, eq(organisers.id, calendarEvents.organiserId))
    .where(where)
    .orderBy(asc(calendarEvents.startsAt), asc(calendarEvents.id));
  return limit === undefined ? query : query.limit(limit);
}

export async function findEvent(db: Db | Tx, id: number): Promise<EventRow | undefined> {
  const [row] = await selectEvents(db, eq(calendarEvents.id, id));
  return row;
}

/** The shown label: the event's own, else the training's name. */
export function labelOf(row: Pick<EventRow, "label" | "training">): string {
  return row.label || row.training;
}

/** The API's form of an event for `actor` at `now`. */
export function toCalendarEvent(row: EventRow, actor: Actor, now: Date, zone: string): CalendarEvent {
  return {
    ID: row.id,
    Title: encodeEventTitle({
      facility: row.facilityId,
      topic: row.topicId,
      training: row.trainingId,
      label: row.label,
    }),
    ...apiTimes(row, zone),
    AllDay: row.allDay,
    Color: row.color,
    Label: row.label,
    Facility: { id: row.facilityId, name: row.facility },
    Topic: { id: row.topicId, name: row.topic },
    Training: { id: row.trainingId, name: row.training, passive: row.passive },
    Location: row.location,
    Organiser:
      row.organiserId === null
        ? null
        : { id: row.organiserId, name: `${row.organiserName ?? ""} ${row.organiserSurname ?? ""}`.trim() },
    InviteeCount: row.inviteeCount,
    AttendedCount: row.attendedCount,
    Started: now.getTime() >= row.startsAt.getTime(),
    CanEdit: decide(actor, "calendar.plan", { facilityId: row.facilityId }) === "allow",
  };
}

/** Per user, the expiry of their newest certificate of the training that counts (none: absent). */
export async function newestExpiries(
  db: Db | Tx,
  trainingId: number,
  userIds: readonly number[],
): Promise<Map<number, Date>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([certificates.userId], { userId: certificates.userId, expiresAt: certificates.expiresAt })
    .from(certificates)
    .where(and(eq(certificates.trainingId, trainingId), inArray(certificates.userId, [...userIds]), validCertificate))
    .orderBy(certificates.userId, desc(certificates.acquiredAt), desc(certificates.id));
  return new Map(rows.map((r) => [r.userId, r.expiresAt]));
}

/** The invitees with their certificate's state today (spec §4 colours) and their attendance. */
// Everyone invited, former employees too: the list is the event's record of who was asked and
// who attended (issue 28 keeps attendance); the reminders go to current members only.
async function loadInvitees(db: Db | Tx, row: EventRow, now: Date, zone: string): Promise<Invitee[]> {
  const people = await db
    .select({ id: users.id, name: users.name, surname: users.surname, attended: calendarInvitees.attended })
    .from(calendarInvitees)
    .innerJoin(users, eq(users.id, calendarInvitees.userId))
    .where(eq(calendarInvitees.eventId, row.id))
    .orderBy(asc(users.surname), asc(users.name), asc(users.id));
  const expiries = await newestExpiries(
    db,
    row.trainingId,
    people.map((p) => p.id),
  );
  const colourOf = expiryColourer(now, zone);
  return people.map((p) => {
    const expiry = expiries.get(p.id);
    return {
      ...p,
      colour: expiry ? colourOf(expiry.getTime()) : "red",
      expires_at: expiry ? expiry.toISOString() : null,
    };
  });
}

export async function toEventDetail(
  db: Db | Tx,
  row: EventRow,
  actor: Actor,
  now: Date,
  zone: string,
): Promise<CalendarEventDetail> {
  return { ...toCalendarEvent(row, actor, now, zone), Invitees: await loadInvitees(db, row, now, zone) };
}
