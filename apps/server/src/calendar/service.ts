import {
  type CalendarEvent,
  type CalendarEventBody,
  type CalendarEventDetail,
  type CalendarRangeQuery,
  ErrorCode,
  type MyEvent,
} from "@carecampus/contract";
import { and, eq, gt, inArray, lt, not, type SQL, sql } from "drizzle-orm";
import { type Actor, assertMay, facilityScope, notFound } from "../access/policy";
import { changedValues } from "../audit/changes";
import { recordAudit } from "../audit/record";
import type { Db, Tx } from "../db/client";
import { calendarEvents, calendarInvitees, calendarReminders } from "../db/schema";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { type EventRow, findEvent, selectEvents, toCalendarEvent, toEventDetail } from "./events";
import { checkInvitees, readEventBody, requirePlannableFacility } from "./input";
import { remindOfEvent } from "./reminders";
import { apiTimes, rangeTimes } from "./times";

/** What the audit trail keeps of an event (decision 21): its facts and invitees, no names. */
async function auditedEvent(tx: Tx, row: EventRow): Promise<Record<string, unknown>> {
  const invitees = await tx
    .select({ userId: calendarInvitees.userId })
    .from(calendarInvitees)
    .where(eq(calendarInvitees.eventId, row.id));
  return {
    training: row.trainingId,
    facility: row.facilityId,
    label: row.label,
    location: row.location,
    all_day: row.allDay,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt.toISOString(),
    invitees: invitees.map((i) => i.userId).sort((a, b) => a - b),
  };
}

/** Upcoming events an employee sees on the start page and training pages. */
const MINE_LIMIT = 50;

/**
 * An event the actor may see (staff of its facility, Super-Admins), else 404 alike for a
 * missing one and one of another facility.
 */
export async function requireEvent(db: Db | Tx, actor: Actor, id: number): Promise<EventRow> {
  assertMay(actor, "calendar.read");
  const row = await findEvent(db, id);
  if (!row) throw notFound("calendar.read");
  assertMay(actor, "calendar.read", { facilityId: row.facilityId });
  return row;
}

/** GET /calendar/events: the events overlapping the range, in the actor's facilities (or the one asked for). */
export async function listEvents(deps: DbClock, actor: Actor, query: CalendarRangeQuery): Promise<CalendarEvent[]> {
  assertMay(actor, "calendar.read");
  const { from, to } = rangeTimes(query, deps.zone);
  // The facility asked for (checked like one to plan for: another is unknown, 1003), else the
  // actor's own, else (Super-Admins) all.
  if (query.facility !== undefined) await requirePlannableFacility(deps.db, actor, query.facility);
  const scope = query.facility ?? facilityScope(actor);
  const facility = scope === "all" ? undefined : scope === null ? sql`false` : eq(calendarEvents.facilityId, scope);
  const rows = await selectEvents(
    deps.db,
    and(facility, lt(calendarEvents.startsAt, to), gt(calendarEvents.endsAt, from)),
  );
  const now = deps.now();
  return rows.map((r) => toCalendarEvent(r, actor, now, deps.zone));
}

/** GET /calendar/events/{id}. */
export async function getEvent(deps: DbClock, actor: Actor, id: number): Promise<CalendarEventDetail> {
  const row = await requireEvent(deps.db, actor, id);
  return toEventDetail(deps.db, row, actor, deps.now(), deps.zone);
}

async function addInvitees(tx: Tx, eventId: number, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx
    .insert(calendarInvitees)
    .values(userIds.map((userId) => ({ eventId, userId })))
    .onConflictDoNothing();
}

/** POST /calendar/events: the actor organises it. */
export async function createEvent(deps: DbClock, actor: Actor, body: CalendarEventBody): Promise<CalendarEventDetail> {
  assertMay(actor, "calendar.plan");
  const now = deps.now();
  const detail = await deps.db.transaction(async (tx) => {
    const values = await readEventBody(tx, actor, body, deps.zone);
    const invitees = await checkInvitees(tx, values.facilityId, body.Invitees ?? []);
    const [created] = await tx
      .insert(calendarEvents)
      .values({ ...values, organiserId: actor.id, createdAt: now, updatedAt: now })
      .returning({ id: calendarEvents.id });
    const id = (created as { id: number }).id;
    await addInvitees(tx, id, invitees);
    const row = (await findEvent(tx, id)) as EventRow;
    await recordAudit(
      tx,
      {
        kind: "calendar.event_created",
        actor,
        facilityId: row.facilityId,
        data: { event: id, ...(await auditedEvent(tx, row)) },
      },
      now,
    );
    return toEventDetail(tx, row, actor, now, deps.zone);
  });
  await remindOfEvent(deps, detail.ID);
  return detail;
}

/**
 * PUT /calendar/events: changes the event with the body's ID. Moving it to another facility
 * checks everything again, its invitees included. Invitees left out stay; a given list
 * replaces them, keeping the attendance of those who stay. A new start time forgets the
 * reminders sent, so the invitees are reminded of the new date.
 */
export async function updateEvent(deps: DbClock, actor: Actor, body: CalendarEventBody): Promise<CalendarEventDetail> {
  assertMay(actor, "calendar.plan");
  if (body.ID === undefined) throw new AppError(ErrorCode.validation, "ID: the event to change is required");
  const id = body.ID;
  const now = deps.now();
  const detail = await deps.db.transaction(async (tx) => {
    // The row lock keeps a parallel change or attendance from interleaving with this one.
    await tx.execute(sql`select 1 from ${calendarEvents} where ${calendarEvents.id} = ${id} for update`);
    const old = await requireEvent(tx, actor, id);
    assertMay(actor, "calendar.plan", { facilityId: old.facilityId });
    const values = await readEventBody(tx, actor, body, deps.zone);
    const was = await auditedEvent(tx, old);
    const current = await tx
      .select({ userId: calendarInvitees.userId })
      .from(calendarInvitees)
      .where(eq(calendarInvitees.eventId, id));
    const invitees = await checkInvitees(tx, values.facilityId, body.Invitees ?? current.map((c) => c.userId));
    await tx
      .update(calendarEvents)
      .set({ ...values, sequence: sql`${calendarEvents.sequence} + 1`, updatedAt: now })
      .where(eq(calendarEvents.id, id));
    if (body.Invitees !== undefined) {
      await tx
        .delete(calendarInvitees)
        .where(
          and(
            eq(calendarInvitees.eventId, id),
            invitees.length > 0 ? not(inArray(calendarInvitees.userId, invitees)) : undefined,
          ),
        );
      await addInvitees(tx, id, invitees);
    }
    if (old.startsAt.getTime() !== values.startsAt.getTime() || old.allDay !== values.allDay) {
      await tx.delete(calendarReminders).where(eq(calendarReminders.eventId, id));
    }
    const row = (await findEvent(tx, id)) as EventRow;
    const changed = changedValues(was, await auditedEvent(tx, row));
    if (Object.keys(changed.after).length > 0) {
      await recordAudit(
        tx,
        { kind: "calendar.event_updated", actor, facilityId: row.facilityId, data: { event: id, ...changed } },
        now,
      );
    }
    return toEventDetail(tx, row, actor, now, deps.zone);
  });
  // New invitees and a new date are announced at once when the event is today or tomorrow.
  await remindOfEvent(deps, id);
  return detail;
}

/** DELETE /calendar/events/{id}: certificates issued through its attendance stay. */
export async function deleteEvent(deps: DbClock, actor: Actor, id: number): Promise<void> {
  assertMay(actor, "calendar.plan");
  await deps.db.transaction(async (tx) => {
    const row = await requireEvent(tx, actor, id);
    assertMay(actor, "calendar.plan", { facilityId: row.facilityId });
    const was = await auditedEvent(tx, row);
    await tx.delete(calendarEvents).where(eq(calendarEvents.id, id));
    await recordAudit(
      tx,
      { kind: "calendar.event_deleted", actor, facilityId: row.facilityId, data: { event: id, before: was } },
      deps.now(),
    );
  });
}

/** The events a user is invited to, as one SQL condition. */
export function invitedTo(userId: number): SQL {
  return sql`exists (select 1 from ${calendarInvitees} ci where ci."event_id" = ${calendarEvents.id} and ci."user_id" = ${userId})`;
}

/** GET /calendar/mine: the caller's invitations that have not ended, soonest first. */
export async function listMyEvents(deps: DbClock, actor: Actor): Promise<MyEvent[]> {
  const rows = await selectEvents(deps.db, and(invitedTo(actor.id), gt(calendarEvents.endsAt, deps.now())), MINE_LIMIT);
  return rows.map((r) => ({
    ID: r.id,
    Label: r.label,
    ...apiTimes(r, deps.zone),
    AllDay: r.allDay,
    Location: r.location,
    Facility: { id: r.facilityId, name: r.facility },
    Topic: { id: r.topicId, name: r.topic },
    Training: { id: r.trainingId, name: r.training },
  }));
}
