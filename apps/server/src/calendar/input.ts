import { type CalendarEventBody, decodeEventTitle, ErrorCode, noNul } from "@carecampus/contract";
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Actor, assertMay, notFound } from "../access/policy";
import { currentMember } from "../access/scope";
import type { Db, Tx } from "../db/client";
import { facilities, topics, trainings, userRoles, users } from "../db/schema";
import { AppError } from "../errors";
import { eventTimes } from "./times";

/** A body's values as stored, after every check. */
export interface EventValues {
  facilityId: number;
  topicId: number;
  trainingId: number;
  label: string;
  location: string | null;
  color: string;
  allDay: boolean;
  startsAt: Date;
  endsAt: Date;
}

const bad = (message: string) => new AppError(ErrorCode.validation, message);

/** A facility the actor may plan for: one outside their scope is answered like an unknown one (1003). */
export async function requirePlannableFacility(tx: Db | Tx, actor: Actor, facilityId: number): Promise<void> {
  assertMay(actor, "calendar.plan", { facilityId });
  const [row] = await tx.select({ id: facilities.id }).from(facilities).where(eq(facilities.id, facilityId));
  if (!row) throw notFound("calendar.plan");
}

/** A current training (neither it nor its topic retired), else 1005. */
export async function requireCurrentTraining(tx: Db | Tx, trainingId: number) {
  const [row] = await tx
    .select({ id: trainings.id, topicId: trainings.topicId })
    .from(trainings)
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(and(eq(trainings.id, trainingId), eq(trainings.retired, false), eq(topics.retired, false)));
  if (!row) throw new AppError(ErrorCode.trainingNotFound, `Training ${trainingId} not found`);
  return row;
}

/**
 * The checked values of a POST or PUT body (spec §5 'a calendar save needs a training'): the
 * Title decodes, the facility is the actor's to plan for, the training is current and lies in
 * the topic, and the times make an event.
 */
export async function readEventBody(tx: Tx, actor: Actor, body: CalendarEventBody, zone: string): Promise<EventValues> {
  const title = decodeEventTitle(body.Title.normalize("NFC"));
  if (typeof title === "string") throw bad(title);
  if (!noNul(title.label) || !noNul(body.Location ?? ""))
    throw bad("Title and Location must not contain NUL characters");
  await requirePlannableFacility(tx, actor, title.facility);
  const training = await requireCurrentTraining(tx, title.training);
  if (training.topicId !== title.topic) {
    throw bad(`Training ${title.training} is not a training of topic ${title.topic}`);
  }
  return {
    facilityId: title.facility,
    topicId: title.topic,
    trainingId: title.training,
    label: title.label,
    location: body.Location?.normalize("NFC") || null,
    color: body.Color.toLowerCase(),
    allDay: body.AllDay,
    ...eventTimes(body, zone),
  };
}

/** Invitees must be current employees of the event's facility; the others are named in the 400. */
export async function checkInvitees(tx: Tx, facilityId: number, userIds: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(userIds)];
  if (wanted.length === 0) return [];
  const found = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(users.id, wanted),
        eq(users.facilityId, facilityId),
        currentMember,
        sql`exists (select 1 from ${userRoles} ur where ur."user_id" = ${users.id} and ur."role" = 'employee')`,
      ),
    );
  const ok = new Set(found.map((r) => r.id));
  const wrong = wanted.filter((id) => !ok.has(id));
  if (wrong.length > 0) {
    throw bad(`Invitees must be employees of the event's facility; these are not: ${wrong.slice(0, 20).join(", ")}`);
  }
  return wanted;
}
