import { type AdminUser, ErrorCode } from "@carecampus/contract";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { type Actor, assertMay } from "../access/policy";
import { currentMember, requireUser } from "../access/scope";
import { recordMatrixPeriods } from "../assignments/history";
import { recordAudit } from "../audit/record";
import { revokeFeedsOfUser } from "../calendar/feed";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { users } from "../db/schema";
import { runTransaction } from "../db/transaction";
import type { UserWriteDeps } from "../deps";
import { AppError } from "../errors";
import { loadAdminUser } from "./service";

/*
 * Leavers are archived, not erased (issue 28, ARCHITECTURE decision 20). Deleting a user and an
 * import's deleteNotIncludedUsers end the person's membership: `archived_at` set, sessions ended
 * (token_version raised: every token issued before is refused, also after a restore), the calendar
 * feed address revoked. Their training record (certificates, attempts, attendance, read
 * confirmations) stays; only the retention job erases a person. Every active list, count and
 * licence limit reads `currentMember` (access/scope.ts).
 */

/** How a person came to be archived (the audit entry's data). */
export type ArchiveVia = "delete" | "import";

/**
 * Archives current members in the caller's transaction, one `user.archived` entry each. Answers
 * with the ids archived (a person archived meanwhile is skipped, never counted twice).
 */
export async function archivePeople(
  tx: Tx,
  actor: Actor,
  ids: readonly number[],
  via: ArchiveVia,
  now: Date,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const archived = await tx
    .update(users)
    .set({ archivedAt: now, archivedBy: actor.id, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now })
    .where(and(inArray(users.id, [...ids]), currentMember))
    .returning({ id: users.id, name: users.name, surname: users.surname, facilityId: users.facilityId });
  archived.sort((a, b) => a.id - b.id);
  // Their period of the matrix history ends (issue 29): they were required until today.
  await recordMatrixPeriods(
    tx,
    archived.map((p) => p.id),
    now,
  );
  for (const person of archived) {
    await revokeFeedsOfUser(tx, person.id);
    await recordAudit(
      tx,
      {
        kind: "user.archived",
        actor,
        facilityId: person.facilityId,
        subjectId: person.id,
        data: { via },
        personal: { subject: `${person.name} ${person.surname}` },
      },
      now,
    );
  }
  return archived.map((p) => p.id);
}

/** The current members (the licence count of MAX_USERS, decision 11): former employees do not count. */
export async function countCurrentMembers(db: Db | Tx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(currentMember);
  return Number(row?.n ?? 0);
}

/** Refuses one more current member beyond MAX_USERS (1012), as creating a user does. */
export async function assertRoomFor(db: Db | Tx, maxUsers: number | undefined, more: number): Promise<void> {
  if (maxUsers === undefined) return;
  if ((await countCurrentMembers(db)) + more > maxUsers) {
    throw new AppError(ErrorCode.maxUsersReached, "Maximum number of users reached");
  }
}

/**
 * POST /auth/admin/users/{id}/restore: a former employee in the caller's scope comes back as they
 * were (login, password, roles, facility, records). Their old sessions stay ended; they log in
 * again. Under the users lock, so the user limit holds against creations at the same moment.
 */
export async function restoreUser(deps: UserWriteDeps, actor: Actor, id: number): Promise<AdminUser> {
  assertMay(actor, "user.restore");
  return runTransaction(deps.db, async (tx) => {
    await lockForTransaction(tx, "users");
    const target = await requireUser(tx, actor, "user.restore", id, "former");
    // An erased person (retention, erasure request) has no name or login left to bring back.
    const [erased] = await tx.select({ at: users.erasedAt }).from(users).where(eq(users.id, id));
    if (erased?.at) throw new AppError(ErrorCode.userNotFound, "User not found");
    await assertRoomFor(tx, deps.maxUsers, 1);
    const now = deps.now();
    await tx.update(users).set({ archivedAt: null, archivedBy: null, updatedAt: now }).where(eq(users.id, id));
    await recordMatrixPeriods(tx, [id], now);
    const person = await loadAdminUser(tx, id);
    await recordAudit(
      tx,
      {
        kind: "user.restored",
        actor,
        facilityId: target.facilityId,
        subjectId: id,
        personal: { subject: `${person.name} ${person.surname}` },
      },
      now,
    );
    return person;
  });
}
