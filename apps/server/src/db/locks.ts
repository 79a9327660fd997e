import { sql } from "drizzle-orm";
import type { Tx } from "./client";

/*
 * Every PostgreSQL advisory lock the server takes, in one registry. All of them use the
 * two-integer form (namespace, id): each kind of lock has a namespace of its own, and the id
 * names what it serialises (a user, a questionnaire, a job; 0 where the kind has only one lock).
 * PostgreSQL keeps these keys apart from the single bigint ones, and two kinds can no longer meet
 * by accident: before this registry the keys were bare numbers spread over nine files, and the
 * quiz's (userId, questionnaireId) put a user id where a namespace belongs, so once user ids
 * passed 42 000 user 42004's answers to questionnaire 7 waited on the passive-training mark of
 * user 7 (42004, 7), and a learner could hold up a content import (42001, …) the same way.
 *
 * The numbers keep the 420xx of the old single keys, so pg_locks (classid = namespace, objid =
 * id, objsubid = 2) reads as before. A new kind of lock takes a new number here; db/locks.test.ts
 * checks that no two kinds share one.
 */
export const LOCK_NAMESPACES = {
  /** First-start seeding (bootstrap.ts): servers starting together seed one after the other. */
  seed: 42000,
  /** The content import (content/service.ts): one importer at a time. */
  contentImport: 42001,
  /** Facility creation: the limit and the unique names hold under concurrency. */
  facilities: 42002,
  /** User creation and the user import: the user limit and the logins hold under concurrency. */
  users: 42003,
  /** Passive-training marks, per user: two clicks at once give one certificate. */
  passiveMarks: 42004,
  /** The background jobs (jobs/catalogue.ts), per job: one server runs each job at a time. */
  jobs: 42005,
  /** The migrations on PostgreSQL (db/client.ts): servers starting together migrate one after the other. */
  migrations: 42009,
  /** Authoring writes, per questionnaire: positions and question versions stay exact. */
  authoringQuestionnaire: 42016,
  /** Partner certificates, per user: two page loads import a certificate once. */
  partnerCertificates: 42017,
  /** A learner's answers, per user (learning/quiz.ts explains why per user, not per questionnaire). */
  quiz: 42018,
  /** The audit trail's hash chain (audit/record.ts): entries are appended one after the other. */
  audit: 42019,
  /** The retention job and erasure requests (issue 28), per user: one erasure at a time. */
  erasure: 42020,
  /** Issuing verifiable credentials (issue 29, credentials/): one at a time, status indexes unique. */
  credentials: 42029,
} as const;

export type LockKind = keyof typeof LOCK_NAMESPACES;

/** One advisory lock: the two int4 arguments of pg_advisory_lock(int, int). */
export interface AdvisoryKey {
  readonly namespace: number;
  readonly id: number;
}

const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;

/** The key of one lock of a kind; ids are the int4 ids of the rows they serialise. */
export function advisoryKey(kind: LockKind, id = 0): AdvisoryKey {
  if (!Number.isInteger(id) || id < INT4_MIN || id > INT4_MAX) {
    throw new RangeError(`advisory lock id of ${kind} must be an int4, not ${id}`);
  }
  return { namespace: LOCK_NAMESPACES[kind], id };
}

/** Takes a lock until the transaction ends (commit or rollback), waiting while another holds it. */
export async function lockForTransaction(tx: Tx, kind: LockKind, id = 0): Promise<void> {
  const key = advisoryKey(kind, id);
  await tx.execute(sql`select pg_advisory_xact_lock(${key.namespace}::int, ${key.id}::int)`);
}
