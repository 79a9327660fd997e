import { type Catalogue, ErrorCode, type TrainingMatrix, type TrainingMatrixSave } from "@carecampus/contract";
import { and, asc, eq, inArray, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type Actor, assertMay } from "../access/policy";
import { requireUser } from "../access/scope";
import { auditSubject } from "../audit/people";
import { recordAudit } from "../audit/record";
import { type Db, runAll, type Tx } from "../db/client";
import { topics, trainingMatrices, trainingMatrixEntries, trainings } from "../db/schema";
import { AppError } from "../errors";
import { recordMatrixPeriods } from "./history";

const current = and(eq(trainings.retired, false), eq(topics.retired, false));

/**
 * ARCHITECTURE decision 6 as one SQL condition: the training is in the user's matrix, or the
 * user has no matrix. Pass numbers or column references (sql`"users"."id"`).
 */
export function isAssigned(userId: number | SQL, trainingId: number | SQL): SQL {
  return sql`(not exists (select 1 from "training_matrices" m where m."user_id" = ${userId})
    or exists (select 1 from "training_matrix_entries" e where e."user_id" = ${userId} and e."training_id" = ${trainingId}))`;
}

/**
 * Decision 6 for one user as a JSON value (a select's column): the ids of the trainings in the
 * user's matrix, or null when the user has none (every training is assigned).
 */
export function assignedTrainingIdsJson(userId: number | Placeholder): SQL {
  return sql`case when exists (select 1 from "training_matrices" m where m."user_id" = ${userId})
    then coalesce((select json_agg(e."training_id") from "training_matrix_entries" e where e."user_id" = ${userId}), '[]'::json) end`;
}

/** Every current topic with its trainings, in the order learners see them. */
export async function loadCatalogue(db: Db | Tx): Promise<Catalogue> {
  const rows = await db
    .select({
      topicId: topics.id,
      topicName: topics.name,
      topicIcon: topics.icon,
      color: topics.color,
      id: trainings.id,
      name: trainings.name,
      icon: trainings.icon,
      passive: trainings.passive,
    })
    .from(trainings)
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(current)
    .orderBy(asc(topics.position), asc(trainings.id));
  const byTopic = new Map<number, Catalogue[number]>();
  for (const r of rows) {
    let topic = byTopic.get(r.topicId);
    if (!topic) {
      topic = { id: r.topicId, name: r.topicName, icon: r.topicIcon, color: r.color, trainings: [] };
      byTopic.set(r.topicId, topic);
    }
    topic.trainings.push({ id: r.id, name: r.name, icon: r.icon, passive: r.passive });
  }
  return [...byTopic.values()];
}

export async function getCatalogue(db: Db, actor: Actor): Promise<Catalogue> {
  assertMay(actor, "catalogue.read");
  return loadCatalogue(db);
}

/**
 * The ids of the trainings assigned to a user, or `null` when the user has no matrix and so
 * is assigned every training (ARCHITECTURE decision 6).
 */
export async function assignedTrainingIds(db: Db | Tx, userId: number): Promise<Set<number> | null> {
  const [matrix] = await db
    .select({ userId: trainingMatrices.userId })
    .from(trainingMatrices)
    .where(eq(trainingMatrices.userId, userId));
  if (!matrix) return null;
  const rows = await db
    .select({ id: trainingMatrixEntries.trainingId })
    .from(trainingMatrixEntries)
    .where(eq(trainingMatrixEntries.userId, userId));
  return new Set(rows.map((r) => r.id));
}

async function loadMatrix(db: Db | Tx, userId: number): Promise<TrainingMatrix> {
  const [catalogue, assigned] = await runAll(db, [
    () => loadCatalogue(db),
    () => assignedTrainingIds(db, userId),
  ] as const);
  const topicsOut = catalogue
    .map((topic) => ({
      topic_id: topic.id,
      trainings: topic.trainings
        .filter((t) => assigned === null || assigned.has(t.id))
        .map((t) => ({ training_id: t.id })),
    }))
    .filter((t) => t.trainings.length > 0);
  return { id: assigned === null ? null : userId, user_id: userId, topics: topicsOut };
}

/** GET /filter/admin/trainingsmatrix/{user_id}: staff within their facility. */
export async function getTrainingMatrix(db: Db, actor: Actor, userId: number): Promise<TrainingMatrix> {
  await requireUser(db, actor, "user.read", userId);
  return loadMatrix(db, userId);
}

/**
 * Replaces a user's training matrix inside the caller's transaction: `null` removes it (every
 * training assigned, decision 6). Every training must be current and, where a topic is named,
 * belong to it (1005 otherwise). Permission checks are the caller's.
 */
export async function writeTrainingMatrix(
  tx: Tx,
  at: { userId: number; actor: Actor; now: Date },
  wanted: { topicId?: number; id: number }[] | null,
): Promise<void> {
  const before = await assignedTrainingIds(tx, at.userId);
  await replaceMatrix(tx, { userId: at.userId, by: at.actor.id, now: at.now }, wanted);
  await recordMatrixPeriods(tx, [at.userId], at.now);
  const after = await assignedTrainingIds(tx, at.userId);
  const sorted = (ids: Set<number> | null) => (ids === null ? null : [...ids].sort((a, b) => a - b));
  const [was, is] = [sorted(before), sorted(after)];
  if (JSON.stringify(was) === JSON.stringify(is)) return;
  // The audit trail (decision 21): the assigned trainings before and after; null is "all of them".
  const subject = await auditSubject(tx, at.userId);
  await recordAudit(
    tx,
    { kind: "matrix.changed", actor: at.actor, ...subject, data: { before: was, after: is } },
    at.now,
  );
}

async function replaceMatrix(
  tx: Tx,
  at: { userId: number; by: number; now: Date },
  wanted: { topicId?: number; id: number }[] | null,
): Promise<void> {
  if (wanted === null) {
    await tx.delete(trainingMatrixEntries).where(eq(trainingMatrixEntries.userId, at.userId));
    await tx.delete(trainingMatrices).where(eq(trainingMatrices.userId, at.userId));
    return;
  }
  const ids = [...new Set(wanted.map((w) => w.id))];
  const known =
    ids.length === 0
      ? []
      : await tx
          .select({ id: trainings.id, topicId: trainings.topicId })
          .from(trainings)
          .innerJoin(topics, eq(topics.id, trainings.topicId))
          .where(and(current, inArray(trainings.id, ids)));
  const topicOf = new Map(known.map((k) => [k.id, k.topicId]));
  const wrong = wanted.find((w) => !topicOf.has(w.id) || (w.topicId !== undefined && topicOf.get(w.id) !== w.topicId));
  if (wrong) {
    throw new AppError(
      ErrorCode.trainingNotFound,
      wrong.topicId === undefined
        ? `Training ${wrong.id} is not a current training`
        : `Training ${wrong.id} is not a current training of topic ${wrong.topicId}`,
    );
  }
  await tx
    .insert(trainingMatrices)
    .values({ userId: at.userId, updatedBy: at.by, updatedAt: at.now })
    .onConflictDoUpdate({ target: trainingMatrices.userId, set: { updatedBy: at.by, updatedAt: at.now } });
  await tx.delete(trainingMatrixEntries).where(eq(trainingMatrixEntries.userId, at.userId));
  if (ids.length > 0) {
    await tx.insert(trainingMatrixEntries).values(ids.map((trainingId) => ({ userId: at.userId, trainingId })));
  }
}

/**
 * POST /filter/admin/trainingsmatrix: replaces the user's assigned trainings in one
 * transaction. Every training must be current and belong to the topic it is listed under.
 */
export async function saveTrainingMatrix(
  db: Db,
  actor: Actor,
  input: TrainingMatrixSave,
  now: Date,
): Promise<TrainingMatrix> {
  assertMay(actor, "user.edit");
  return db.transaction(async (tx) => {
    const target = await requireUser(tx, actor, "user.edit", input.user_id);
    const wanted = input.topics.flatMap((topic) =>
      topic.trainings.map((t) => ({ topicId: topic.topic_id, id: t.training_id })),
    );
    await writeTrainingMatrix(tx, { userId: target.id, actor, now }, wanted);
    return loadMatrix(tx, target.id);
  });
}
