import { ErrorCode, type ExternalCourse, type PartnerAdminCourses } from "@carecampus/contract";
import { and, desc, eq, inArray } from "drizzle-orm";
import { type Actor, assertMay } from "../access/policy";
import { currentMember, requireUser, userScope } from "../access/scope";
import { issueCertificate } from "../certificates/service";
import { validCertificate } from "../db/certificates";
import type { Db } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { certificates, facilities, partnerCertificates, topics, trainings, users } from "../db/schema";
import { AppError } from "../errors";
import {
  type PartnerCertificate,
  type PartnerClient,
  PartnerError,
  type PartnerProgress,
  type PartnerToken,
  userIdOfRef,
  userRef,
} from "./client";

/*
 * External courses of a partner provider (spec §2, §3, §7): the courses of a training, the
 * learner's launch token, the import of partner certificates, the staff view. The partner is
 * reached only through client.ts; what the browser gets never holds the partner's API address
 * or credentials.
 */

export interface PartnerDeps {
  db: Db;
  now: () => Date;
  zone: string;
  client: PartnerClient;
  /** Partner course id → training key whose certificate its completion issues. */
  certify: ReadonlyMap<string, string>;
  log: { warn(obj: object, msg: string): void };
}

interface TrainingRow {
  id: number;
  key: string;
  validityMonths: number;
  points: number;
}

/** The training of the query (not retired, in that topic), else 1005. */
async function findTraining(db: Db, topicId: number, trainingId: number): Promise<TrainingRow> {
  const [row] = await db
    .select({
      id: trainings.id,
      key: trainings.key,
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
      ),
    );
  if (!row) throw new AppError(ErrorCode.trainingNotFound, "Training not found");
  return row;
}

/** A partner failure as the browser learns it: 502 with 1107; the details stay in the log. */
async function fromPartner<T>(deps: Pick<PartnerDeps, "log">, what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof PartnerError)) throw err;
    deps.log.warn({ reason: err.reason, detail: err.message }, `partner provider: ${what} failed`);
    throw new AppError(
      ErrorCode.partnerUnavailable,
      "The partner provider of external courses is not available at the moment",
    );
  }
}

/** GET /external-course/token: a launch token bound to the learner, from the partner. */
export function partnerLaunchToken(deps: PartnerDeps, actor: Actor): Promise<PartnerToken> {
  assertMay(actor, "learning.take");
  const name = `${actor.name} ${actor.surname}`.trim() || actor.login;
  return fromPartner(deps, "launch token", () => deps.client.launchToken(userRef(actor.id), name));
}

/**
 * GET /external-course/course: the training's partner courses with the user's progress. New
 * partner certificates are fetched first and then stored in one transaction, so a partner
 * that fails halfway leaves nothing written; when the course counts for the training, its
 * completion issues the training's certificate too.
 */
export async function listPartnerCourses(
  deps: PartnerDeps,
  actor: Actor,
  query: { topicId: number; trainingId: number; userId?: number },
): Promise<ExternalCourse[]> {
  const userId = query.userId ?? actor.id;
  if (userId === actor.id) assertMay(actor, "learning.take");
  else await requireUser(deps.db, actor, "partnerCourses.read", userId);
  const training = await findTraining(deps.db, query.topicId, query.trainingId);
  const ref = userRef(userId);

  const [courses, progress] = await fromPartner(deps, "courses and progress", () =>
    Promise.all([deps.client.listCourses(training.key), deps.client.progress(training.key, ref)]),
  );
  const listed = new Set(courses.map((c) => c.id));
  const mine = new Map<string, PartnerProgress>();
  for (const p of progress) if (p.user_ref === ref && listed.has(p.course_id)) mine.set(p.course_id, p);

  const wanted = [...mine.values()].flatMap((p) => (p.certificate_id && p.completed_at ? [p] : []));
  if (wanted.length > 0) {
    const known = await deps.db
      .select({ id: partnerCertificates.partnerCertificateId })
      .from(partnerCertificates)
      .where(
        and(
          eq(partnerCertificates.userId, userId),
          inArray(
            partnerCertificates.partnerCertificateId,
            wanted.map((p) => p.certificate_id as string),
          ),
        ),
      );
    const have = new Set(known.map((k) => k.id));
    const missing = wanted.filter((p) => !have.has(p.certificate_id as string));
    const fetched = await fromPartner(deps, "certificate", () =>
      Promise.all(missing.map((p) => deps.client.certificate(p.certificate_id as string))),
    );
    for (const c of fetched) {
      if (c.userRef !== ref || !listed.has(c.courseId)) {
        deps.log.warn({ certificate: c.certificateId }, "partner provider: certificate of another user or course");
        throw new AppError(
          ErrorCode.partnerUnavailable,
          "The partner provider of external courses is not available at the moment",
        );
      }
    }
    const names = new Map(courses.map((c) => [c.id, c.name]));
    await storeCertificates(deps, userId, training, fetched, names);
  }

  const stored = await deps.db
    .select({
      id: partnerCertificates.id,
      courseId: partnerCertificates.courseId,
      filename: partnerCertificates.filename,
      completedAt: partnerCertificates.completedAt,
      certificateId: partnerCertificates.certificateId,
    })
    .from(partnerCertificates)
    .where(and(eq(partnerCertificates.userId, userId), eq(partnerCertificates.trainingId, training.id)))
    .orderBy(desc(partnerCertificates.completedAt), desc(partnerCertificates.id));
  const newest = new Map<string, (typeof stored)[number]>();
  for (const s of stored) if (!newest.has(s.courseId)) newest.set(s.courseId, s);

  return courses.map((c) => {
    const p = mine.get(c.id);
    const cert = newest.get(c.id);
    return {
      external_id: c.id,
      name: c.name,
      icon_url: c.icon_url,
      url: c.launch_url,
      count: p?.count ?? 0,
      total: p?.total ?? 0,
      counts_for_training: deps.certify.get(c.id) === training.key,
      certificate: cert
        ? {
            id: cert.id,
            filename: cert.filename,
            acquired_at: cert.completedAt.toISOString(),
            certificate_id: cert.certificateId,
          }
        : null,
    };
  });
}

async function storeCertificates(
  deps: PartnerDeps,
  userId: number,
  training: TrainingRow,
  fetched: PartnerCertificate[],
  names: Map<string, string>,
): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // Two page loads at once import a certificate once and issue one training certificate.
    await lockForTransaction(tx, "partnerCertificates", userId);
    for (const c of fetched.sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime())) {
      const completedAt = c.issuedAt > now ? now : c.issuedAt;
      const [row] = await tx
        .insert(partnerCertificates)
        .values({
          userId,
          trainingId: training.id,
          courseId: c.courseId,
          courseName: names.get(c.courseId) ?? c.courseId,
          partnerCertificateId: c.certificateId,
          filename: c.filename,
          content: c.pdf,
          completedAt,
        })
        .onConflictDoNothing()
        .returning({ id: partnerCertificates.id });
      if (!row || deps.certify.get(c.courseId) !== training.key) continue;
      const [newest] = await tx
        .select({ expiresAt: certificates.expiresAt })
        .from(certificates)
        .where(and(eq(certificates.userId, userId), eq(certificates.trainingId, training.id), validCertificate))
        .orderBy(desc(certificates.acquiredAt), desc(certificates.id))
        .limit(1);
      const certificateId = await issueCertificate(
        tx,
        userId,
        { ...training, newest: newest ?? null },
        completedAt,
        deps.zone,
      );
      await tx.update(partnerCertificates).set({ certificateId }).where(eq(partnerCertificates.id, row.id));
    }
  });
}

/** GET /external-course/admin/courses: the staff member's users who started the training's partner courses. */
export async function partnerAdminCourses(
  deps: PartnerDeps,
  actor: Actor,
  query: { topicId: number; trainingId: number },
): Promise<PartnerAdminCourses> {
  assertMay(actor, "partnerCourses.read");
  const training = await findTraining(deps.db, query.topicId, query.trainingId);
  const [courses, progress] = await fromPartner(deps, "courses and progress", () =>
    Promise.all([deps.client.listCourses(training.key), deps.client.progress(training.key)]),
  );
  const listed = new Set(courses.map((c) => c.id));
  const byUser = new Map<number, PartnerProgress[]>();
  for (const p of progress) {
    const id = userIdOfRef(p.user_ref);
    if (id === null || !listed.has(p.course_id)) continue;
    byUser.set(id, [...(byUser.get(id) ?? []), p]);
  }
  const ids = [...byUser.keys()];
  const people =
    ids.length === 0
      ? []
      : await deps.db
          .select({ id: users.id, name: users.name, surname: users.surname, facility: facilities.name })
          .from(users)
          .leftJoin(facilities, eq(facilities.id, users.facilityId))
          .where(and(inArray(users.id, ids), userScope(actor), currentMember))
          .orderBy(users.surname, users.name, users.id);
  return {
    courses: courses.map((c) => ({ external_id: c.id, name: c.name })),
    users: people.map((u) => ({
      ...u,
      courses: (byUser.get(u.id) ?? []).map((p) => ({
        external_id: p.course_id,
        count: p.count,
        total: p.total,
        completed_at: p.completed_at ? new Date(p.completed_at).toISOString() : null,
      })),
    })),
  };
}
