import { eq, isNull, type SQL, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { certificates, facilities, topics, trainings, users } from "./schema";

/*
 * Which certificates count (issue 29). A revoked certificate stays in the history, marked, but
 * proves nothing: it leaves progress and colours, the overview and its export, expiry notices,
 * the "certificates held" counts and the renewal's start. Every query that asks for the
 * certificates that count says so with this one condition, never with its own spelling.
 */

/** A certificate that counts: not revoked. One condition on `certificates`. */
export const validCertificate: SQL = isNull(certificates.revokedAt);

/** The same in a hand-written statement whose `certificates` go by `alias` (e.g. `c`). */
export function validCertificateAs(alias: string): SQL {
  return sql`${sql.identifier(alias)}."revoked_at" is null`;
}

/**
 * What an issued certificate prints (certificates/service.ts certificateData): its own columns
 * and those of its holder, the holder's facility, its training and topic. With
 * `withCertificateContext`, the one query for a certificate's PDF, its credential and the
 * person's data export.
 */
export const issuedCertificateColumns = {
  id: certificates.id,
  userId: certificates.userId,
  acquiredAt: certificates.acquiredAt,
  expiresAt: certificates.expiresAt,
  revokedAt: certificates.revokedAt,
  points: certificates.points,
  code: certificates.verificationCode,
  login: users.login,
  name: users.name,
  surname: users.surname,
  facilityId: users.facilityId,
  // Left-joined: a select in dynamic mode keeps a column's own type, so the null is said here.
  facility: sql<string | null>`${facilities.name}`,
  trainingId: trainings.id,
  training: trainings.name,
  description: trainings.description,
  passive: trainings.passive,
  legalBasis: trainings.legalBasis,
  topic: topics.name,
};

/** A select from `certificates` (in dynamic mode) joined to the tables `issuedCertificateColumns` reads. */
export function withCertificateContext<T extends PgSelect>(query: T) {
  return query
    .innerJoin(users, eq(users.id, certificates.userId))
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .innerJoin(trainings, eq(trainings.id, certificates.trainingId))
    .innerJoin(topics, eq(topics.id, trainings.topicId));
}
