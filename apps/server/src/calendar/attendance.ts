import {
  type CalendarEventDetail,
  daysUntil,
  ErrorCode,
  expiryColourer,
  type ProposalEntry,
} from "@carecampus/contract";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { type Actor, assertMay } from "../access/policy";
import { currentMember } from "../access/scope";
import { isAssigned } from "../assignments/service";
import { recordAudit } from "../audit/record";
import { certifyPassive } from "../certificates/service";
import type { Tx } from "../db/client";
import { calendarEvents, calendarInvitees, trainings, userRoles, users } from "../db/schema";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { type EventRow, findEvent, newestExpiries, toEventDetail } from "./events";
import { requireCurrentTraining, requirePlannableFacility } from "./input";
import { requireEvent } from "./service";
import { parseWhen } from "./times";

/**
 * GET /calendar/proposal: the facility's employees who must do the training (their matrix,
 * decision 6), each with their newest certificate's state today, proposed when they have none
 * or it expires on or before the event's day — red on that day by the spec §4 rule.
 * Proposed first, then by surname and name.
 */
export async function proposeInvitees(
  deps: DbClock,
  actor: Actor,
  query: { facility: number; training: number; start: string },
): Promise<ProposalEntry[]> {
  assertMay(actor, "calendar.plan");
  const start = parseWhen(query.start, deps.zone);
  if (!start) throw new AppError(ErrorCode.validation, "start: not a valid ISO date (YYYY-MM-DD) or date-time");
  const { db, zone } = deps;
  await requirePlannableFacility(db, actor, query.facility);
  await requireCurrentTraining(db, query.training);
  const people = await db
    .select({ id: users.id, name: users.name, surname: users.surname })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.role, "employee")))
    .where(and(eq(users.facilityId, query.facility), currentMember, isAssigned(sql`${users.id}`, query.training)));
  const expiries = await newestExpiries(
    db,
    query.training,
    people.map((p) => p.id),
  );
  const now = deps.now();
  const colourOf = expiryColourer(now, zone);
  const collator = new Intl.Collator("de", { sensitivity: "base", numeric: true });
  return people
    .map((p) => {
      const expiry = expiries.get(p.id);
      return {
        ...p,
        colour: expiry ? colourOf(expiry.getTime()) : ("red" as const),
        expires_at: expiry ? expiry.toISOString() : null,
        proposed: !expiry || daysUntil(expiry, start.at, zone) <= 0,
      };
    })
    .sort(
      (a, b) =>
        Number(b.proposed) - Number(a.proposed) ||
        collator.compare(a.surname, b.surname) ||
        collator.compare(a.name, b.name) ||
        a.id - b.id,
    );
}

/**
 * PUT /calendar/events/{id}/attendance, once the event has begun: who of the invitees
 * attended (every other invitee did not). For a passive training each attendee gets the
 * certificate in the same transaction, valid from the event's start and marked by the actor
 * (the overview's passive rule); the invitee keeps it, so a second recording issues none again.
 * Attendance taken back keeps the certificate: certificates are history, never deleted.
 */
export async function recordAttendance(
  deps: DbClock,
  actor: Actor,
  eventId: number,
  attended: readonly number[],
): Promise<{ event: CalendarEventDetail; certificates: number }> {
  assertMay(actor, "calendar.plan");
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${calendarEvents} where ${calendarEvents.id} = ${eventId} for update`);
    const event = await requireEvent(tx, actor, eventId);
    assertMay(actor, "calendar.plan", { facilityId: event.facilityId });
    if (now.getTime() < event.startsAt.getTime()) {
      throw new AppError(ErrorCode.validation, "Attendance can be recorded once the event has begun");
    }
    const invitees = await tx
      .select({ userId: calendarInvitees.userId, certificateId: calendarInvitees.certificateId })
      .from(calendarInvitees)
      .where(eq(calendarInvitees.eventId, eventId));
    const invited = new Set(invitees.map((i) => i.userId));
    const present = new Set(attended);
    const strangers = [...present].filter((id) => !invited.has(id));
    if (strangers.length > 0) {
      throw new AppError(
        ErrorCode.validation,
        `Only invitees can attend; not invited: ${strangers.slice(0, 20).join(", ")}`,
      );
    }
    const before = (
      await tx
        .select({ userId: calendarInvitees.userId })
        .from(calendarInvitees)
        .where(and(eq(calendarInvitees.eventId, eventId), eq(calendarInvitees.attended, true)))
    ).map((r) => r.userId);
    await tx
      .update(calendarInvitees)
      .set({ attended: present.size > 0 ? inArray(calendarInvitees.userId, [...present]) : sql`false` })
      .where(eq(calendarInvitees.eventId, eventId));
    const issued = event.passive ? await certifyAttendees(tx, event, actor, present, deps.zone, now) : 0;
    const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);
    await recordAudit(
      tx,
      {
        kind: "calendar.attendance_recorded",
        actor,
        facilityId: event.facilityId,
        data: {
          event: eventId,
          training: event.trainingId,
          before: sorted(before),
          after: sorted(present),
          certificates: issued,
        },
      },
      now,
    );
    return {
      event: await toEventDetail(tx, (await findEvent(tx, eventId)) as EventRow, actor, now, deps.zone),
      certificates: issued,
    };
  });
}

/** Certificates for the attendees who have none from this event yet; how many were issued. */
async function certifyAttendees(
  tx: Tx,
  event: EventRow,
  actor: Actor,
  present: ReadonlySet<number>,
  zone: string,
  now: Date,
): Promise<number> {
  if (present.size === 0) return 0;
  // The training as it is now, retired or not: the session took place either way.
  const [training] = await tx
    .select({ id: trainings.id, validityMonths: trainings.validityMonths, points: trainings.points })
    .from(trainings)
    .where(eq(trainings.id, event.trainingId));
  if (!training) return 0;
  const waiting = await tx
    .select({ userId: calendarInvitees.userId })
    .from(calendarInvitees)
    .where(
      and(
        eq(calendarInvitees.eventId, event.id),
        inArray(calendarInvitees.userId, [...present]),
        isNull(calendarInvitees.certificateId),
      ),
    );
  let issued = 0;
  for (const { userId } of waiting) {
    const certificate = await certifyPassive(tx, userId, training, event.startsAt, zone, {
      actor,
      via: "attendance",
      now,
    });
    await tx
      .update(calendarInvitees)
      .set({ certificateId: certificate.id })
      .where(and(eq(calendarInvitees.eventId, event.id), eq(calendarInvitees.userId, userId)));
    if (certificate.issued) issued += 1;
  }
  return issued;
}
