import {
  ErrorCode,
  expiryColour,
  expiryColourer,
  Language,
  type OverviewCell,
  type TopicOverview,
} from "@carecampus/contract";
import { and, asc, eq, sql } from "drizzle-orm";
import { type Actor, assertMay, facilityScope, notFound } from "../access/policy";
import { requireUser } from "../access/scope";
import { isAssigned } from "../assignments/service";
import { auditSubject } from "../audit/people";
import { recordAudit } from "../audit/record";
import { certifyPassive } from "../certificates/service";
import type { Db, Tx } from "../db/client";
import { facilities, preferences, topics, trainings, userRoles } from "../db/schema";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { type Learners, loadLearners, loadTopicGrid, NOT_ASSIGNED, type OverviewGrid } from "./grid";
import { isoFormatter } from "./iso";
import { exportFileName, writeOverviewWorkbook } from "./xlsx";

/**
 * The facility an overview covers: facility-bound staff their own (another name is answered
 * like an unknown one, 1003), Super-Admins all (undefined) or the one named.
 */
export async function overviewScope(
  db: Db | Tx,
  actor: Actor,
  facilityName: string | undefined,
): Promise<{ id: number; name: string } | undefined> {
  const name = facilityName?.normalize("NFC").trim() || undefined;
  const scope = facilityScope(actor);
  if (name === undefined && scope === "all") return undefined;
  const columns = { id: facilities.id, name: facilities.name };
  // A named facility, else the actor's own (a bound actor without one has none).
  const where =
    name !== undefined
      ? eq(sql`lower(${facilities.name})`, name.toLowerCase())
      : typeof scope === "number"
        ? eq(facilities.id, scope)
        : sql`false`;
  const [row] = await db.select(columns).from(facilities).where(where);
  if (!row) throw notFound("overview.read");
  assertMay(actor, "overview.read", { facilityId: row.id });
  return row;
}

/** The API's form of a grid: per learner the assigned trainings, dated and coloured. */
function toTopicOverview(grid: OverviewGrid, now: Date, zone: string): TopicOverview {
  const colourOf = expiryColourer(now, zone);
  const iso = isoFormatter();
  const width = grid.trainings.length;
  return {
    topic: grid.topic,
    trainings: grid.trainings,
    users: grid.learners.map((u, r) => {
      const cells: OverviewCell[] = [];
      for (let i = 0; i < width; i++) {
        const expiry = grid.expires[r * width + i] as number;
        if (expiry === NOT_ASSIGNED) continue;
        const training_id = (grid.trainings[i] as { id: number }).id;
        if (Number.isNaN(expiry)) {
          cells.push({ training_id, acquired_at: null, expires_at: null, colour: "red" });
        } else {
          const acquired_at = iso(grid.acquired[r * width + i] as number);
          cells.push({ training_id, acquired_at, expires_at: iso(expiry), colour: colourOf(expiry) });
        }
      }
      return {
        id: u.id,
        name: u.name,
        surname: u.surname,
        facility: u.facilityId !== null && u.facilityName !== null ? { id: u.facilityId, name: u.facilityName } : null,
        cells,
      };
    }),
  };
}

/** GET /progress/admin/topics/{topicId}[?facilityName=]. */
export async function getTopicOverview(
  db: Db,
  actor: Actor,
  topicId: number,
  facilityName: string | undefined,
  now: Date,
  zone: string,
): Promise<TopicOverview> {
  assertMay(actor, "overview.read");
  const facility = await overviewScope(db, actor, facilityName);
  return toTopicOverview(await loadTopicGrid(db, topicId, facility?.id), now, zone);
}

/**
 * POST /progress/admin/users/{id}/passivetraining: a training run outside the platform is
 * marked passed — a certificate with the training's validity from today. Marking the same
 * training twice on one day gives the first certificate back (a double click is no renewal).
 */
export async function markPassiveTraining(
  deps: DbClock,
  actor: Actor,
  userId: number,
  topicId: number,
  trainingId: number,
): Promise<OverviewCell> {
  assertMay(actor, "training.markPassed");
  const now = deps.now();
  const zone = deps.zone;
  return deps.db.transaction(async (tx) => {
    await requireUser(tx, actor, "training.markPassed", userId);
    const [training] = await tx
      .select({
        id: trainings.id,
        passive: trainings.passive,
        validityMonths: trainings.validityMonths,
        points: trainings.points,
      })
      .from(trainings)
      .innerJoin(topics, eq(topics.id, trainings.topicId))
      .where(
        and(
          eq(trainings.id, trainingId),
          eq(trainings.topicId, topicId),
          eq(trainings.retired, false),
          eq(topics.retired, false),
          isAssigned(userId, trainingId),
        ),
      );
    if (!training) throw new AppError(ErrorCode.trainingNotFound, "Training not found");
    if (!training.passive) {
      throw new AppError(ErrorCode.validation, "Only passive (in-person) trainings can be marked as passed");
    }
    const [learner] = await tx
      .select({ userId: userRoles.userId })
      .from(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.role, "employee")));
    if (!learner) throw new AppError(ErrorCode.validation, "Only employees take trainings");
    const certificate = await certifyPassive(tx, userId, training, now, zone, { actor, via: "passive_mark", now });
    const { acquiredAt, expiresAt } = certificate;
    if (certificate.issued) {
      await recordAudit(
        tx,
        {
          kind: "training.marked_passed",
          actor,
          ...(await auditSubject(tx, userId)),
          data: { topic: topicId, training: trainingId, certificate: certificate.id },
        },
        now,
      );
    }
    return {
      training_id: trainingId,
      acquired_at: acquiredAt.toISOString(),
      expires_at: expiresAt.toISOString(),
      colour: expiryColour(expiresAt, now, zone),
    };
  });
}

/** GET /progress/admin/export/xlsx: the workbook for the caller's scope, in their language. */
export async function exportOverview(
  deps: DbClock,
  actor: Actor,
  facilityName: string | undefined,
  topicId: number | undefined,
  onError: (err: unknown) => void,
) {
  assertMay(actor, "overview.read");
  assertMay(actor, "overview.export");
  const { db } = deps;
  const now = deps.now();
  const facility = await overviewScope(db, actor, facilityName);
  const topicRows = await db
    .select({ id: topics.id })
    .from(topics)
    .where(
      and(
        eq(topics.retired, false),
        topicId === undefined ? undefined : eq(topics.id, topicId),
        // A topic without current trainings would be an empty sheet.
        sql`exists (select 1 from "trainings" t where t."topic_id" = "topics"."id" and not t."retired")`,
      ),
    )
    .orderBy(asc(topics.position));
  if (topicId !== undefined && topicRows.length === 0) throw new AppError(ErrorCode.notFound, "Topic not found");
  const [pref] = await db
    .select({ language: preferences.language })
    .from(preferences)
    .where(eq(preferences.userId, actor.id));
  let learners: Promise<Learners> | undefined;
  const learnersOnce = () => {
    learners ??= loadLearners(db, facility?.id);
    return learners;
  };
  const stream = writeOverviewWorkbook(
    {
      language: Language.catch("de").parse(pref?.language),
      facilityName: facility?.name,
      now,
      zone: deps.zone,
      topics: topicRows.map((t) => t.id),
      load: (id) => loadTopicGrid(db, id, facility?.id, learnersOnce),
    },
    onError,
  );
  return { stream, filename: exportFileName(facility?.name, now, deps.zone) };
}
