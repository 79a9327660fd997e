import crypto from "node:crypto";
import { AUDIT_SYSTEM_ACTOR, type AuditKind, type Role } from "@carecampus/contract";
import { asc, desc, eq, gt, sql } from "drizzle-orm";
import type { Actor } from "../access/policy";
import { type Db, isTransaction, type Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { auditLog } from "../db/schema";

/*
 * The audit trail (issue 28, ARCHITECTURE decision 21). Every change staff make calls
 * recordAudit inside the change's own transaction: the entry commits with the change or not at
 * all. The entries form a hash chain: each entry's hash covers the previous entry's hash and the
 * entry's hashed part (when, who, what, which facility, which person, the data), so changing,
 * inserting or removing an entry in the middle breaks the chain at that place and
 * verifyAuditChain names it. Names, logins and e-mails go into `personal`, outside the hash:
 * erasing a person (forgetPersonInAudit) empties them without breaking anything.
 *
 * Appending takes the audit lock until the transaction ends: entries are chained one after the
 * other, in the order of their ids. Audited changes are staff actions, rare next to answers; a
 * long transaction (the content import) records its entry last, just before it commits.
 */

/** The previous hash of the first entry. */
export const GENESIS_HASH = "0".repeat(64);

export interface AuditRecord {
  kind: AuditKind;
  /** Who made the change; null for the system (a job, the start, a command-line tool). */
  actor: Actor | null;
  /** The facility the change belongs to (what an administrator's view filters by). */
  facilityId?: number | null | undefined;
  /** The person the change is about. */
  subjectId?: number | null | undefined;
  /** What changed: ids, field names, counts, before/after of non-personal values. Never a name or a secret. */
  data?: Record<string, unknown>;
  /**
   * Personal values shown with the entry, outside the hash: the subject's name
   * (`subject`), a changed name or e-mail's before/after. The actor's name is added here.
   */
  personal?: Record<string, unknown>;
}

/** The most powerful of an actor's roles: what the entry records as "in which role". */
const ROLE_ORDER: readonly Role[] = ["superchris", "contentmanager", "administrator", "supervisor", "employee"];
export function actorRole(actor: Actor | null): string {
  if (!actor) return AUDIT_SYSTEM_ACTOR;
  return ROLE_ORDER.find((r) => actor.roles.includes(r)) ?? actor.roles[0] ?? "employee";
}

/** JSON with its keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** The hashed part of an entry, as stored. */
export interface HashedPart {
  at: Date;
  actorId: number | null;
  actorRole: string;
  kind: string;
  facilityId: number | null;
  subjectId: number | null;
  data: Record<string, unknown>;
  prevHash: string;
}

export function entryHash(e: HashedPart): string {
  const text = canonicalJson({
    at: e.at.toISOString(),
    actor_id: e.actorId,
    actor_role: e.actorRole,
    kind: e.kind,
    facility_id: e.facilityId,
    subject_id: e.subjectId,
    data: e.data,
    prev_hash: e.prevHash,
  });
  return crypto.createHash("sha256").update(text, "utf8").digest("hex");
}

/** A value as it comes back from jsonb: dates as ISO text, no undefined. */
const asStored = (value: Record<string, unknown> | undefined): Record<string, unknown> =>
  value === undefined ? {} : (JSON.parse(JSON.stringify(value)) as Record<string, unknown>);

/** Appends one entry; only inside the change's transaction. */
export async function recordAudit(tx: Tx, record: AuditRecord, now: Date): Promise<void> {
  if (!isTransaction(tx)) throw new Error("recordAudit runs inside the transaction of the change it records");
  await lockForTransaction(tx, "audit");
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  const hashed: HashedPart = {
    // The column keeps milliseconds: the hash is computed over what is stored.
    at: new Date(Math.floor(now.getTime())),
    actorId: record.actor?.id ?? null,
    actorRole: actorRole(record.actor),
    kind: record.kind,
    facilityId: record.facilityId ?? null,
    subjectId: record.subjectId ?? null,
    data: asStored(record.data),
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  const personal = asStored({
    ...(record.actor ? { actor: `${record.actor.name} ${record.actor.surname}`.trim() } : {}),
    ...record.personal,
  });
  await tx.insert(auditLog).values({ ...hashed, personal, hash: entryHash(hashed) });
}

export interface ChainVerification {
  intact: boolean;
  entries: number;
  /** The id of the first entry whose hash or link to its predecessor does not hold. */
  firstBroken: number | null;
}

const VERIFY_BATCH = 1000;

/** Recomputes the chain from the first entry, in batches (a long trail is never one array). */
export async function verifyAuditChain(db: Db | Tx): Promise<ChainVerification> {
  let prev = GENESIS_HASH;
  let lastId = 0;
  let entries = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(gt(auditLog.id, lastId))
      .orderBy(asc(auditLog.id))
      .limit(VERIFY_BATCH);
    for (const row of rows) {
      entries += 1;
      const expected = entryHash({ ...row, at: new Date(row.at), prevHash: row.prevHash });
      if (row.prevHash !== prev || row.hash !== expected) {
        // Count the rest, so the answer says how long the trail is.
        const [rest] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(gt(auditLog.id, row.id));
        return { intact: false, entries: entries + (rest?.n ?? 0), firstBroken: row.id };
      }
      prev = row.hash;
      lastId = row.id;
    }
    if (rows.length < VERIFY_BATCH) return { intact: true, entries, firstBroken: null };
  }
}

/**
 * Erasure (retention, an erasure request): the person's name leaves every entry they made or
 * that was about them. The hashed part stays, so the chain still verifies.
 */
export async function forgetPersonInAudit(tx: Tx, userId: number): Promise<void> {
  await tx
    .update(auditLog)
    .set({ personal: sql`${auditLog.personal} - 'actor'` })
    .where(eq(auditLog.actorId, userId));
  await tx.update(auditLog).set({ personal: sql`'{}'::jsonb` }).where(eq(auditLog.subjectId, userId));
}
