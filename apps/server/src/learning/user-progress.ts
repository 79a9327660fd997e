import type { UserProgress } from "@carecampus/contract";
import { desc, eq } from "drizzle-orm";
import type { Actor } from "../access/policy";
import { requireUser } from "../access/scope";
import { partnerCertificates, trainings } from "../db/schema";
import type { DbClock } from "../deps";
import { loadSnapshot, toUserProgress } from "./progress";

/*
 * A user's progress is learning's: the quiz issues certificates (certificates/), and this reads
 * them back with the rest of the learning state, so learning uses certificates and not the
 * other way round.
 */

/** GET /progress/admin/users/{id}: the user's progress, their own for /profile or a user within the staff member's scope. */
export async function getUserProgress(deps: DbClock, actor: Actor, userId: number): Promise<UserProgress> {
  // Former employees too (issue 28): staff see the certificate history of a person who left.
  const target = await requireUser(deps.db, actor, "user.view", userId, "any");
  const now = deps.now();
  const progress = toUserProgress(await loadSnapshot(deps.db, target.id, now, deps.zone), now, deps.zone);
  const partner = await deps.db
    .select({
      id: partnerCertificates.id,
      courseName: partnerCertificates.courseName,
      training: trainings.name,
      filename: partnerCertificates.filename,
      acquiredAt: partnerCertificates.completedAt,
    })
    .from(partnerCertificates)
    .innerJoin(trainings, eq(trainings.id, partnerCertificates.trainingId))
    .where(eq(partnerCertificates.userId, target.id))
    .orderBy(desc(partnerCertificates.completedAt), desc(partnerCertificates.id));
  progress.partner_certificates = partner.map((p) => ({
    id: p.id,
    course_name: p.courseName,
    training_name: p.training,
    filename: p.filename,
    acquired_at: p.acquiredAt.toISOString(),
  }));
  return progress;
}
