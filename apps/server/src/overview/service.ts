import {
  daysUntil,
  ErrorCode,
  type ExpiryColour,
  expiryColour,
  Language,
  type OverviewCell,
  type OverviewUser,
  seesAllFacilities,
  type TopicOverview,
} from "@carecampus/contract";
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { AppDeps } from "../app";
import { isAssigned } from "../assignments/service";
import { type Actor, maySeeUser } from "../auth/guards";
import { type Db, runAll, type Tx } from "../db/client";
import { certificates, facilities, preferences, topics, trainings, userRoles, users } from "../db/schema";
import { AppError } from "../errors";
import { issueCertificate } from "../learning/quiz";
import { assertStaff } from "../users/admin-service";
import { exportFileName, writeOverviewWorkbook } from "./xlsx";

/**
 * The facility an overview covers: facility-bound staff their own (a different name is
 * refused), Super-Admins all (undefined) or the one named.
 */
export async function overviewScope(
  db: Db | Tx,
  actor: Actor,
  facilityName: string | undefined,
): Promise<{ id: number; name: string } | undefined> {
  const name = facilityName?.normalize("NFC").trim() || undefined;
  if (!seesAllFacilities(actor.roles)) {
    const [own] =
      actor.facilityId === null
        ? []
        : await db
            .select({ id: facilities.id, name: facilities.name })
            .from(facilities)
            .where(eq(facilities.id, actor.facilityId));
    if (!own || (name !== undefined && name.toLowerCase() !== own.name.toLowerCase())) {
      throw new AppError(ErrorCode.facilityNotFound, "Facility not found");
    }
    return own;
  }
  if (name === undefined) return undefined;
  const [row] = await db
    .select({ id: facilities.id, name: facilities.name })
    .from(facilities)
    .where(eq(sql`lower(${facilities.name})`, name.toLowerCase()));
  if (!row) throw new AppError(ErrorCode.facilityNotFound, "Facility not found");
  return row;
}

/** The rows of a raw query, on either driver. */
async function rows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const isLearner = sql`exists (select 1 from "user_roles" ur where ur."user_id" = "users"."id" and ur."role" = 'employee')`;

/** The learners (employees) in scope, ordered by facility and name. */
export function loadLearners(db: Db | Tx, facilityId: number | undefined) {
  return db
    .select({
      id: users.id,
      name: users.name,
      surname: users.surname,
      facilityId: facilities.id,
      facilityName: facilities.name,
    })
    .from(users)
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .where(and(facilityId === undefined ? undefined : eq(users.facilityId, facilityId), isLearner))
    .orderBy(asc(facilities.name), asc(users.surname), asc(users.name), asc(users.id));
}
type Learners = Awaited<ReturnType<typeof loadLearners>>;

/** A learner's state in one training; dates as epoch milliseconds until they leave the server. */
export interface Cell {
  trainingId: number;
  acquired: number | null;
  expires: number | null;
  colour: ExpiryColour;
}

export interface Learner {
  id: number;
  name: string;
  surname: string;
  facility: { id: number; name: string } | null;
  cells: Cell[];
}

export interface OverviewData {
  topic: TopicOverview["topic"];
  trainings: TopicOverview["trainings"];
  users: Learner[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toApiCell(c: Cell): OverviewCell {
  return { training_id: c.trainingId, acquired_at: iso(c.acquired), expires_at: iso(c.expires), colour: c.colour };
}

function toApi(data: OverviewData): TopicOverview {
  return { ...data, users: data.users.map((u): OverviewUser => ({ ...u, cells: u.cells.map(toApiCell) })) };
}

/**
 * Every learner in scope × every training of the topic assigned to them, in five queries
 * whatever the size: topic, trainings, learners, their newest certificates, their matrices.
 */
export async function loadTopicOverview(
  db: Db | Tx,
  topicId: number,
  facilityId: number | undefined,
  now: Date,
  /** The learners, when the caller loads them once for several topics (the export). */
  learnersOf?: () => Promise<Learners>,
): Promise<OverviewData> {
  const [topicRows, trainingRows] = await runAll(db, [
    () =>
      db
        .select({ id: topics.id, name: topics.name, icon: topics.icon, color: topics.color })
        .from(topics)
        .where(and(eq(topics.id, topicId), eq(topics.retired, false))),
    () =>
      db
        .select({ id: trainings.id, name: trainings.name, icon: trainings.icon, passive: trainings.passive })
        .from(trainings)
        .where(and(eq(trainings.topicId, topicId), eq(trainings.retired, false))),
  ] as const);
  const topic = topicRows[0];
  if (!topic) throw new AppError(ErrorCode.notFound, "Topic not found");
  const collator = new Intl.Collator("de", { numeric: true, sensitivity: "base" });
  trainingRows.sort((a, b) => collator.compare(a.name, b.name));
  const trainingIds = trainingRows.map((t) => t.id);
  if (trainingIds.length === 0) return { topic, trainings: [], users: [] };

  const scope = facilityId === undefined ? sql`true` : sql`u."facility_id" = ${facilityId}`;
  const inTopic = sql.join(
    trainingIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // Written in SQL with numbers for the dates: thousands of rows, no per-row object mapping.
  const [learners, certRows, assignedRows] = await runAll(db, [
    () => learnersOf?.() ?? loadLearners(db, facilityId),
    () =>
      rows<{ u: number; t: number; a: number; e: number }>(
        db,
        sql`select distinct on (c."training_id", c."user_id") c."user_id" as u, c."training_id" as t,
              (extract(epoch from c."acquired_at") * 1000)::float8 as a, (extract(epoch from c."expires_at") * 1000)::float8 as e
            from "certificates" c join "users" u on u."id" = c."user_id"
            where ${scope} and c."training_id" in (${inTopic})
            order by c."training_id", c."user_id", c."acquired_at" desc`,
      ),
    // Users with a matrix, each with the topic's trainings in it (possibly none).
    () =>
      rows<{ u: number; t: number[] | null }>(
        db,
        sql`select m."user_id" as u,
              array(select e."training_id" from "training_matrix_entries" e
                    where e."user_id" = m."user_id" and e."training_id" in (${inTopic})) as t
            from "training_matrices" m join "users" u on u."id" = m."user_id"
            where ${scope}`,
      ),
  ] as const);

  const index = new Map(trainingIds.map((id, i) => [id, i]));
  const certs = new Map<number, ({ a: number; e: number } | undefined)[]>();
  for (const c of certRows) {
    let list = certs.get(c.u);
    if (!list) {
      list = new Array(trainingIds.length);
      certs.set(c.u, list);
    }
    list[index.get(c.t) as number] = c;
  }
  const assigned = new Map(assignedRows.map((m) => [m.u, new Set(m.t ?? [])]));
  const usersOut: Learner[] = [];
  for (const u of learners) {
    const only = assigned.get(u.id);
    const list = certs.get(u.id);
    const cells: Cell[] = [];
    for (let i = 0; i < trainingIds.length; i++) {
      const trainingId = trainingIds[i] as number;
      if (only && !only.has(trainingId)) continue;
      const cert = list?.[i];
      cells.push({
        trainingId,
        acquired: cert ? cert.a : null,
        expires: cert ? cert.e : null,
        colour: cert ? expiryColour(new Date(cert.e), now) : "red",
      });
    }
    if (cells.length === 0) continue;
    usersOut.push({
      id: u.id,
      name: u.name,
      surname: u.surname,
      facility: u.facilityId !== null && u.facilityName !== null ? { id: u.facilityId, name: u.facilityName } : null,
      cells,
    });
  }
  return { topic, trainings: trainingRows, users: usersOut };
}

/** GET /progress/admin/topics/{topicId}[?facilityName=]. */
export async function getTopicOverview(
  db: Db,
  actor: Actor,
  topicId: number,
  facilityName: string | undefined,
  now: Date,
): Promise<TopicOverview> {
  assertStaff(actor);
  const facility = await overviewScope(db, actor, facilityName);
  return toApi(await loadTopicOverview(db, topicId, facility?.id, now));
}

/**
 * POST /progress/admin/users/{id}/passivetraining: a training run outside the platform is
 * marked passed — a certificate with the training's validity from today. Marking the same
 * training twice on one day gives the first certificate back (a double click is no renewal).
 */
export async function markPassiveTraining(
  deps: AppDeps,
  actor: Actor,
  userId: number,
  topicId: number,
  trainingId: number,
): Promise<OverviewCell> {
  assertStaff(actor);
  const now = deps.now();
  return deps.database.db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: users.id, facilityId: users.facilityId })
      .from(users)
      .where(eq(users.id, userId));
    if (!target || !maySeeUser(actor, target)) throw new AppError(ErrorCode.userNotFound, "User not found");
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
    // Serialises marks of the same user: two clicks at once still give one certificate.
    await tx.execute(sql`select pg_advisory_xact_lock(42004, ${userId})`);
    const [newest] = await tx
      .select({ acquiredAt: certificates.acquiredAt, expiresAt: certificates.expiresAt })
      .from(certificates)
      .where(and(eq(certificates.userId, userId), eq(certificates.trainingId, trainingId)))
      .orderBy(desc(certificates.acquiredAt), desc(certificates.id))
      .limit(1);
    const cell = (acquiredAt: Date, expiresAt: Date): OverviewCell => ({
      training_id: trainingId,
      acquired_at: acquiredAt.toISOString(),
      expires_at: expiresAt.toISOString(),
      colour: expiryColour(expiresAt, now),
    });
    if (newest && daysUntil(newest.acquiredAt, now) === 0) return cell(newest.acquiredAt, newest.expiresAt);
    const id = await issueCertificate(tx, userId, { ...training, newest: null }, now, actor.id);
    const [issued] = await tx
      .select({ acquiredAt: certificates.acquiredAt, expiresAt: certificates.expiresAt })
      .from(certificates)
      .where(eq(certificates.id, id));
    if (!issued) throw new AppError(ErrorCode.certificateNotFound, "Certificate not found");
    return cell(issued.acquiredAt, issued.expiresAt);
  });
}

/** GET /progress/admin/export/xlsx: the workbook for the caller's scope, in their language. */
export async function exportOverview(
  deps: AppDeps,
  actor: Actor,
  facilityName: string | undefined,
  topicId: number | undefined,
  onError: (err: unknown) => void,
) {
  assertStaff(actor);
  const { db } = deps.database;
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
      topics: topicRows.map((t) => t.id),
      load: (id) => loadTopicOverview(db, id, facility?.id, now, learnersOnce),
    },
    onError,
  );
  return { stream, filename: exportFileName(facility?.name, now) };
}
