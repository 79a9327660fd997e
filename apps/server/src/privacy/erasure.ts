import type { PrivacyPart } from "@carecampus/contract";
import { eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Actor } from "../access/policy";
import { recordMatrixPeriods } from "../assignments/history";
import { forgetPersonInAudit, recordAudit } from "../audit/record";
import type { Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { auditLog, users } from "../db/schema";
import { linkCondition, personKeys } from "./collect";
import { type PersonLink, PRIVACY_REGISTRY, type PrivacyEntry, type Replacement } from "./registry";

/*
 * Erasure (GDPR Art. 17; issue 28 "Retention"), driven by the privacy registry: every link of
 * every table to the person gets its erasure rule. The users row is anonymised, not deleted, so
 * certificates, attempts and attendance keep counting in their facility naming nobody ("1 former
 * employee of Haus Sonnenhof held Händehygiene until 03.2025"). The audit trail keeps its
 * entries; forgetPersonInAudit empties the names outside the hash, so the chain still verifies.
 */

/** Why a person is erased: their retention ended (the daily job), or a request that found nothing to keep. */
export type ErasureWhy = { reason: "retention" } | { reason: "request"; actor: Actor };

/** What `to` writes into `column` of `table`. */
function replacement(table: PgTable, column: AnyPgColumn, to: Replacement): unknown {
  switch (to) {
    case "null":
      return null;
    case "empty":
      if (column.dataType === "array") return sql`'{}'`;
      if (column.dataType === "json") return sql`'{}'::jsonb`;
      return "";
    case "default":
      return sql`default`;
    case "pseudonym": {
      // Unique per row and naming nobody: the row's own id where it has one.
      const id = (getTableColumns(table) as Record<string, AnyPgColumn>).id;
      return id ? sql`'erased-' || ${id}` : sql`'erased-' || md5(random()::text || clock_timestamp()::text)`;
    }
    case "unusable":
      // No password hash: verification fails for every input (security/passwords.ts).
      return "!";
  }
}

/** The columns of a table by their Drizzle property names, as `update().set()` takes them. */
function propertyOf(table: PgTable, column: AnyPgColumn): string {
  const found = Object.entries(getTableColumns(table)).find(([, c]) => c === column);
  if (!found) throw new Error(`privacy registry: ${column.name} is not a column of its table`);
  return found[0];
}

/** Applies one link's erasure rule to the person's rows it finds. */
async function applyRule(tx: Tx, entry: PrivacyEntry, link: PersonLink, condition: SQL): Promise<void> {
  const rule = link.erasure;
  switch (rule.rule) {
    case "delete":
    case "keep-until-retention":
      await tx.delete(entry.table).where(condition);
      return;
    case "anonymise": {
      const set = Object.fromEntries(
        rule.set.map((s) => [propertyOf(entry.table, s.column), replacement(entry.table, s.column, s.to)]),
      );
      await tx.update(entry.table).set(set).where(condition);
      return;
    }
    case "keep-anonymous":
    case "not-personal-after-erasure":
      return;
  }
}

/** Whether the person is still there to erase; throws for a missing one. */
async function lockedPerson(tx: Tx, userId: number) {
  await lockForTransaction(tx, "erasure", userId);
  const [row] = await tx
    .select({ facilityId: users.facilityId, archivedAt: users.archivedAt, erasedAt: users.erasedAt })
    .from(users)
    .where(eq(users.id, userId));
  const person = row && (await personKeys(tx, userId));
  if (!row || !person) throw new Error(`erasure: no user ${userId}`);
  return { ...row, person };
}

/**
 * Erases a person: every registry rule, the names in the audit trail, `users.erased_at`, and a
 * `user.erased` entry (the system's for the retention job, the requester's for a request).
 * Inside the caller's transaction; a second call for an erased person does nothing.
 */
export async function erasePerson(tx: Tx, userId: number, now: Date, why: ErasureWhy): Promise<boolean> {
  const { facilityId, archivedAt, erasedAt, person } = await lockedPerson(tx, userId);
  if (erasedAt) return false;
  // The users row last: the other tables' links find the person by its login, name and e-mail.
  const entries = [...PRIVACY_REGISTRY].sort((a, b) => Number(a.table === users) - Number(b.table === users));
  for (const entry of entries) {
    // The audit trail's entries stay; forgetPersonInAudit takes the names out of them below.
    if (entry.table === auditLog) continue;
    for (const link of entry.links) {
      const condition = linkCondition(link, person);
      if (condition) await applyRule(tx, entry, link, condition);
    }
  }
  await forgetPersonInAudit(tx, userId);
  await tx
    .update(users)
    .set({ erasedAt: now, archivedAt: archivedAt ?? now, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId));
  // A person erased while a member leaves the matrix history's open period (issue 29).
  await recordMatrixPeriods(tx, [userId], now);
  await recordAudit(
    tx,
    {
      kind: "user.erased",
      actor: why.reason === "request" ? why.actor : null,
      facilityId,
      subjectId: userId,
      data: { reason: why.reason },
    },
    now,
  );
  return true;
}

/**
 * What an erasure request erases at once, before the retention ends: the rows whose rule says
 * they prove nothing (`atOnce`: preferences, notifications, the calendar feed, reminders, mail
 * copies, limit counters). Returns the parts erased.
 */
export async function eraseAtOnce(tx: Tx, userId: number): Promise<PrivacyPart[]> {
  const { person } = await lockedPerson(tx, userId);
  const parts = new Set<PrivacyPart>();
  for (const entry of PRIVACY_REGISTRY) {
    for (const link of entry.links) {
      const rule = link.erasure;
      if ((rule.rule !== "delete" && rule.rule !== "keep-until-retention") || !rule.atOnce) continue;
      const condition = linkCondition(link, person);
      if (!condition) continue;
      await applyRule(tx, entry, link, condition);
      parts.add(rule.atOnce);
    }
  }
  return [...parts];
}
