import { ErrorCode } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import type { Actor } from "../auth/guards";
import { maySeeUser } from "../auth/guards";
import type { Db } from "../db/client";
import { certificates, facilities, topics, trainings, users } from "../db/schema";
import { AppError } from "../errors";
import { renderCertificate } from "./pdf";

/** The PDF of a certificate, for its owner and the staff allowed to see that user (else 1011). */
export async function certificatePdf(db: Db, actor: Actor, id: number): Promise<{ pdf: Uint8Array; filename: string }> {
  const [row] = await db
    .select({
      userId: certificates.userId,
      acquiredAt: certificates.acquiredAt,
      expiresAt: certificates.expiresAt,
      points: certificates.points,
      code: certificates.verificationCode,
      name: users.name,
      surname: users.surname,
      facilityId: users.facilityId,
      facility: facilities.name,
      training: trainings.name,
      passive: trainings.passive,
      topic: topics.name,
    })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.userId))
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .innerJoin(trainings, eq(trainings.id, certificates.trainingId))
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(eq(certificates.id, id));
  if (!row || !maySeeUser(actor, { id: row.userId, facilityId: row.facilityId })) {
    throw new AppError(ErrorCode.certificateNotFound, "Certificate not found");
  }
  const pdf = await renderCertificate({
    name: row.name,
    surname: row.surname,
    training: row.training,
    topic: row.topic,
    facility: row.facility,
    acquiredAt: row.acquiredAt,
    expiresAt: row.expiresAt,
    points: row.points,
    verificationCode: row.code,
    passive: row.passive,
  });
  const slug = (s: string) =>
    s
      .normalize("NFKD")
      .replace(/[^\w\s-]/g, "")
      .trim()
      .replace(/\s+/g, "-")
      .slice(0, 60);
  return { pdf, filename: `Zertifikat-${slug(row.training)}-${slug(`${row.name}-${row.surname}`)}.pdf` };
}
