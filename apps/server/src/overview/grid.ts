import { ErrorCode, type TopicOverview } from "@carecampus/contract";
import { and, asc, eq, sql } from "drizzle-orm";
import { currentMember } from "../access/scope";
import { validCertificateAs } from "../db/certificates";
import { type Db, runAll, selectRows, type Tx } from "../db/client";
import { facilities, topics, trainings, users } from "../db/schema";
import { AppError } from "../errors";

const isLearner = sql`exists (select 1 from "user_roles" ur where ur."user_id" = "users"."id" and ur."role" = 'employee')`;

/**
 * The learners (employees) in scope, ordered by facility and name: current members only, so a
 * former employee has no row (their certificates, read below by learner, are not shown either).
 */
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
    .where(and(facilityId === undefined ? undefined : eq(users.facilityId, facilityId), isLearner, currentMember))
    .orderBy(asc(facilities.name), asc(users.surname), asc(users.name), asc(users.id));
}
export type Learners = Awaited<ReturnType<typeof loadLearners>>;

/** A grid value: the learner has no certificate of the training. */
export const NONE = Number.NaN;
/** A grid value: the training is not in the learner's matrix. */
export const NOT_ASSIGNED = Number.NEGATIVE_INFINITY;

/**
 * One topic's overview as compact columns: row r is learners[r], column i is trainings[i], and
 * acquired/expires[r × trainings.length + i] hold epoch milliseconds, NONE or NOT_ASSIGNED.
 * A million cells of the export are a few megabytes of numbers here, not a million objects.
 */
export interface OverviewGrid {
  topic: TopicOverview["topic"];
  trainings: TopicOverview["trainings"];
  learners: Learners;
  acquired: Float64Array;
  expires: Float64Array;
}

/**
 * Every learner in scope × every training of the topic assigned to them, in five queries
 * whatever the size: topic, trainings, learners, their newest certificates, their matrices.
 */
export async function loadTopicGrid(
  db: Db | Tx,
  topicId: number,
  facilityId: number | undefined,
  /** The learners, when the caller loads them once for several topics (the export). */
  learnersOf?: () => Promise<Learners>,
): Promise<OverviewGrid> {
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
  const empty = new Float64Array(0);
  if (trainingIds.length === 0) return { topic, trainings: [], learners: [], acquired: empty, expires: empty };

  const scope = facilityId === undefined ? sql`true` : sql`u."facility_id" = ${facilityId}`;
  const inTopic = sql.join(
    trainingIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const scoped =
    facilityId === undefined ? sql`` : sql`join "users" u on u."id" = c."user_id" and u."facility_id" = ${facilityId}`;
  // Each answer is one JSON text (columns of numbers; dates as epoch milliseconds) that
  // JSON.parse reads at native speed, instead of thousands of rows parsed one by one.
  const [learners, [certJson], [matrixJson]] = await runAll(db, [
    () => learnersOf?.() ?? loadLearners(db, facilityId),
    () =>
      selectRows<{ j: string }>(
        db,
        sql`select json_build_array(array_agg(x.u), array_agg(x.t), array_agg(x.a), array_agg(x.e))::text as j
            from (select distinct on (c."training_id", c."user_id") c."user_id" as u, c."training_id" as t,
                    (extract(epoch from c."acquired_at") * 1000)::float8 as a,
                    (extract(epoch from c."expires_at") * 1000)::float8 as e
                  from "certificates" c ${scoped}
                  where c."training_id" in (${inTopic}) and ${validCertificateAs("c")}
                  order by c."training_id", c."user_id", c."acquired_at" desc) x`,
      ),
    // Users with a matrix, each with the topic's trainings in it (possibly none).
    () =>
      selectRows<{ j: string | null }>(
        db,
        sql`select json_agg(json_build_array(m."user_id",
                  array(select e."training_id" from "training_matrix_entries" e
                        where e."user_id" = m."user_id" and e."training_id" in (${inTopic}))))::text as j
            from "training_matrices" m join "users" u on u."id" = m."user_id"
            where ${scope}`,
      ),
  ] as const);

  const [certUsers, certTrainings, certAcquired, certExpires] = JSON.parse(certJson?.j ?? "[]") as (number[] | null)[];
  const width = trainingIds.length;
  const column = new Map(trainingIds.map((id, i) => [id, i]));
  // Per learner, per training of the topic: the row of the newest certificate in the columns.
  const certs = new Map<number, Int32Array>();
  certUsers?.forEach((userId, row) => {
    let list = certs.get(userId);
    if (!list) {
      list = new Int32Array(width).fill(-1);
      certs.set(userId, list);
    }
    list[column.get(certTrainings?.[row] as number) as number] = row;
  });
  const matrices = JSON.parse(matrixJson?.j ?? "[]") as [number, number[]][];
  const assigned = new Map(matrices.map(([userId, ids]) => [userId, new Set(ids)]));

  // Learners whose matrix leaves out the whole topic have no row.
  const shown = learners.filter((u) => {
    const only = assigned.get(u.id);
    return !only || trainingIds.some((id) => only.has(id));
  });
  const acquired = new Float64Array(shown.length * width).fill(NONE);
  const expires = new Float64Array(shown.length * width).fill(NONE);
  shown.forEach((u, r) => {
    const only = assigned.get(u.id);
    const list = certs.get(u.id);
    for (let i = 0; i < width; i++) {
      if (only && !only.has(trainingIds[i] as number)) {
        acquired[r * width + i] = NOT_ASSIGNED;
        expires[r * width + i] = NOT_ASSIGNED;
        continue;
      }
      const row = list ? (list[i] as number) : -1;
      if (row < 0) continue;
      acquired[r * width + i] = certAcquired?.[row] as number;
      expires[r * width + i] = certExpires?.[row] as number;
    }
  });
  return { topic, trainings: trainingRows, learners: shown, acquired, expires };
}
