import {
  type CertificateRevoke,
  ErrorCode,
  formatDate,
  isoDay,
  NotificationMessageKey,
  type RevokedCertificate,
} from "@carecampus/contract";
import { and, eq, isNull } from "drizzle-orm";
import { type Actor, assertMay, notFound } from "../access/policy";
import { requireUser } from "../access/scope";
import { recordAudit } from "../audit/record";
import { setCredentialRevoked } from "../credentials/service";
import { certificates, preferences, trainings, users } from "../db/schema";
import { runTransaction } from "../db/transaction";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { enqueueMail, mailQueued } from "../mail/outbox";
import { fill, localeTexts, mailBody, mailLanguage, mailTexts } from "../mail/templates";
import { createNotifications } from "../notifications/service";

/*
 * Revocation (issue 29): staff with the right (superusers and Super-Admins everywhere,
 * administrators their facility) mark a certificate revoked with a reason. It is never deleted:
 * it stays in the history, marked, and counts nowhere any more (db/certificates.ts).
 */

/**
 * POST /certificates/{id}/revoke. In one transaction: the certificate marked (only if it was not
 * revoked yet, so two at once give one revocation and a 409), the holder's notice and, for a
 * current member with an e-mail address, a mail in the outbox, and the audit entry. A refused
 * or failing revocation writes none of them.
 */
export async function revokeCertificate(
  deps: DbClock,
  actor: Actor,
  id: number,
  body: CertificateRevoke,
): Promise<RevokedCertificate> {
  // A refused role learns nothing about the certificate (403 before the lookup).
  assertMay(actor, "certificate.revoke");
  const note = body.note ? body.note : null;
  const result = await runTransaction(deps.db, async (tx) => {
    const [cert] = await tx
      .select({
        userId: certificates.userId,
        trainingId: certificates.trainingId,
        training: trainings.name,
        topicId: trainings.topicId,
        revokedAt: certificates.revokedAt,
      })
      .from(certificates)
      .innerJoin(trainings, eq(trainings.id, certificates.trainingId))
      .where(eq(certificates.id, id));
    if (!cert) throw notFound("certificate.revoke");
    // Former employees' certificates too (issue 28): their record is kept, and so is its truth.
    const holder = await requireUser(tx, actor, "certificate.revoke", cert.userId, "any");
    if (cert.revokedAt) throw new AppError(ErrorCode.conflict, "The certificate is revoked already");
    const now = deps.now();
    const [revoked] = await tx
      .update(certificates)
      .set({ revokedAt: now, revokedBy: actor.id, revokeReason: body.reason, revokeNote: note })
      .where(and(eq(certificates.id, id), isNull(certificates.revokedAt)))
      .returning({ id: certificates.id });
    if (!revoked) throw new AppError(ErrorCode.conflict, "The certificate is revoked already");
    // Its signed credential (VERIFIABLE_CREDENTIALS), if one was issued: the status bit is set.
    await setCredentialRevoked(tx, id, now);

    const [person] = await tx
      .select({
        name: users.name,
        surname: users.surname,
        email: users.email,
        language: preferences.language,
      })
      .from(users)
      .leftJoin(preferences, eq(preferences.userId, users.id))
      .where(eq(users.id, cert.userId));
    await createNotifications(tx, [cert.userId], "CERTIFICATE_REVOKED", {
      key: NotificationMessageKey.certificateRevoked,
      values: {
        training: cert.training,
        date: isoDay(now, deps.zone),
        reason: body.reason,
        topicId: String(cert.topicId),
        trainingId: String(cert.trainingId),
      },
    });
    // A former employee has no login and is out of every mail; the notice waits in their record.
    const mailed = Boolean(person?.email) && holder.archivedAt === null;
    if (person?.email && mailed) {
      const language = mailLanguage(person.language);
      const texts = localeTexts(language).revoke;
      const values = {
        name: person.name,
        surname: person.surname,
        training: cert.training,
        date: formatDate(now, deps.zone),
        reason: texts.reasons[body.reason],
      };
      await enqueueMail(
        tx,
        [
          {
            to: [person.email],
            subject: fill(texts.mail.subject, values),
            text: mailBody(language, [fill(mailTexts(language).greeting, values), "", fill(texts.mail.text, values)]),
          },
        ],
        now,
      );
    }
    await recordAudit(
      tx,
      {
        kind: "certificate.revoked",
        actor,
        facilityId: holder.facilityId,
        subjectId: cert.userId,
        data: { certificate: id, training: cert.trainingId, reason: body.reason },
        // The note is free text in staff's words: personal, outside the hashed part.
        personal: {
          subject: person ? `${person.name} ${person.surname}`.trim() : "",
          ...(note && { note }),
        },
      },
      now,
    );
    return { mailed, answer: { id, revoked: { at: now.toISOString(), reason: body.reason } } };
  });
  if (result.mailed) mailQueued();
  return result.answer;
}
