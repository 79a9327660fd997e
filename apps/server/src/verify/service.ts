import {
  type CertificateStatus,
  daysUntil,
  formatVerificationCode,
  isoDay,
  normaliseVerificationCode,
  type PublicVerification,
  verificationCodeShape,
} from "@carecampus/contract";
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import { certificates, facilities, topics, trainings, users } from "../db/schema";

/*
 * The public verification of a certificate (issue 29): what its paper shows and its status,
 * for anyone holding the code. Known and unknown codes do the same work, one statement on the
 * unique index of the code, so the answer's time tells nothing about which codes exist.
 */

/** What a verification found: the certificate as its paper shows it, or null for an unknown code. */
export interface Verification {
  /** The code as typed, normalised (rules/verification-code.ts). */
  typed: string;
  /** A new code whose check character does not hold: a typo, worth saying so. */
  mistyped: boolean;
  found: PublicVerification | null;
}

/** The status of a certificate at `now`: revoked, else replaced by a newer one, else expired (TIME_ZONE days) or valid. */
function statusOf(
  row: { expiresAt: Date; revokedAt: Date | null; newerValidUntil: Date | null },
  now: Date,
  zone: string,
): CertificateStatus {
  if (row.revokedAt) return "revoked";
  if (row.newerValidUntil) return "replaced";
  // As everywhere in the product (learning/progress.ts): the proof has lapsed from its last day on.
  return daysUntil(row.expiresAt, now, zone) > 0 ? "valid" : "expired";
}

/** Looks a typed code up (spaces, dashes, lower case and the 12-character codes of old certificates are fine). */
export async function verifyCertificate(db: Db, typedCode: string, now: Date, zone: string): Promise<Verification> {
  const code = normaliseVerificationCode(typedCode);
  const newer = alias(certificates, "newer");
  // The newest later certificate of the same person and training that still holds (a revoked
  // renewal replaces nothing).
  const newerValidUntil = db
    .select({ expiresAt: newer.expiresAt })
    .from(newer)
    .where(
      and(
        eq(newer.userId, certificates.userId),
        eq(newer.trainingId, certificates.trainingId),
        isNull(newer.revokedAt),
        or(
          gt(newer.acquiredAt, certificates.acquiredAt),
          and(eq(newer.acquiredAt, certificates.acquiredAt), gt(newer.id, certificates.id)),
        ),
      ),
    )
    .orderBy(desc(newer.acquiredAt), desc(newer.id))
    .limit(1);
  // Always this one statement, whatever the code looks like: a code of no valid shape (or an
  // erased person's pseudonym, which no normalised code equals) simply finds nothing.
  const [row] = await db
    .select({
      code: certificates.verificationCode,
      acquiredAt: certificates.acquiredAt,
      expiresAt: certificates.expiresAt,
      revokedAt: certificates.revokedAt,
      name: users.name,
      surname: users.surname,
      facility: facilities.name,
      training: trainings.name,
      topic: topics.name,
      newerValidUntil: sql`(${newerValidUntil})`.mapWith(certificates.expiresAt),
    })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.userId))
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .innerJoin(trainings, eq(trainings.id, certificates.trainingId))
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(and(eq(certificates.verificationCode, code), isNull(users.erasedAt)));
  const mistyped = verificationCodeShape(code) === "mistyped";
  if (!row) return { typed: code, mistyped, found: null };
  const newerValid = row.newerValidUntil as Date | null;
  const status = statusOf({ ...row, newerValidUntil: newerValid }, now, zone);
  return {
    typed: code,
    mistyped,
    found: {
      code: formatVerificationCode(row.code),
      status,
      // The name as the paper prints it: never the login in its place.
      holder: `${row.name} ${row.surname}`.trim(),
      training: row.training,
      topic: row.topic,
      facility: row.facility,
      issued_at: row.acquiredAt.toISOString(),
      valid_until: row.expiresAt.toISOString(),
      ...(status === "revoked" && row.revokedAt && { revoked_on: isoDay(row.revokedAt, zone) }),
      ...(status === "replaced" && newerValid && { replaced_by: { valid_until: newerValid.toISOString() } }),
    },
  };
}
