import { type AdditionalQualification, ErrorCode } from "@carecampus/contract";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { type Action, type Actor, assertMay, facilityScope, notFound } from "../access/policy";
import { requireUser } from "../access/scope";
import { recordAudit } from "../audit/record";
import type { Db, Tx } from "../db/client";
import { additionalQualifications, facilities, userAdditionalQualifications } from "../db/schema";
import { runTransaction } from "../db/transaction";
import { AppError } from "../errors";

const COLUMNS = {
  id: additionalQualifications.id,
  name: additionalQualifications.name,
  facility: additionalQualifications.facilityId,
};

/** A facility the action may be done in: unknown and out-of-scope facilities both give 1003. */
async function assertFacility(db: Db, actor: Actor, action: Action, facilityId: number): Promise<void> {
  assertMay(actor, action, { facilityId });
  const [row] = await db.select({ id: facilities.id }).from(facilities).where(eq(facilities.id, facilityId));
  if (!row) throw notFound(action);
}

/** GET /external[?facility]: one facility's list; without it, the own facility's (or all for Super-Admins). */
export async function listAdditionalQualifications(
  db: Db,
  actor: Actor,
  facilityId: number | undefined,
): Promise<AdditionalQualification[]> {
  assertMay(actor, "qualifications.list");
  const scope = facilityScope(actor);
  const facility = facilityId ?? (scope === "all" ? undefined : scope);
  if (facility === null) return [];
  if (facility !== undefined) await assertFacility(db, actor, "qualifications.list", facility);
  return db
    .select(COLUMNS)
    .from(additionalQualifications)
    .where(facility === undefined ? undefined : eq(additionalQualifications.facilityId, facility))
    .orderBy(asc(additionalQualifications.name), asc(additionalQualifications.id));
}

/** POST /external {name, facility}: a name is unique within its facility, ignoring case. */
export async function createAdditionalQualification(
  db: Db,
  actor: Actor,
  input: { name: string; facility: number },
  now: Date,
): Promise<AdditionalQualification> {
  assertMay(actor, "qualifications.create");
  await assertFacility(db, actor, "qualifications.create", input.facility);
  return runTransaction(db, async (tx) => {
    const [inserted] = await tx
      .insert(additionalQualifications)
      .values({ name: input.name, facilityId: input.facility })
      .onConflictDoNothing()
      .returning(COLUMNS);
    if (!inserted) {
      throw new AppError(ErrorCode.conflict, "This facility already has an additional qualification of that name");
    }
    await recordAudit(
      tx,
      {
        kind: "qualification.created",
        actor,
        facilityId: input.facility,
        data: { qualification: inserted.id, name: inserted.name },
      },
      now,
    );
    return inserted;
  });
}

/** GET /external/user/{userId}: the user themself, or staff who may see the user. */
export async function getUserAdditionalQualifications(
  db: Db,
  actor: Actor,
  userId: number,
): Promise<AdditionalQualification[]> {
  await requireUser(db, actor, "user.qualifications.read", userId);
  return db
    .select(COLUMNS)
    .from(userAdditionalQualifications)
    .innerJoin(
      additionalQualifications,
      eq(additionalQualifications.id, userAdditionalQualifications.additionalQualificationId),
    )
    .where(eq(userAdditionalQualifications.userId, userId))
    .orderBy(asc(additionalQualifications.name));
}

/**
 * Replaces a user's additional qualifications inside the caller's transaction; each must belong
 * to the user's facility (400 otherwise). Permission checks are the caller's.
 */
export async function writeUserAdditionalQualifications(
  tx: Tx,
  userId: number,
  facilityId: number | null,
  ids: number[],
): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length > 0) {
    const found = await tx
      .select({ id: additionalQualifications.id })
      .from(additionalQualifications)
      .where(
        and(
          inArray(additionalQualifications.id, unique),
          facilityId !== null ? eq(additionalQualifications.facilityId, facilityId) : sql`false`,
        ),
      );
    if (found.length !== unique.length) {
      throw new AppError(ErrorCode.validation, "Additional qualifications must belong to the user's facility");
    }
  }
  await tx.delete(userAdditionalQualifications).where(eq(userAdditionalQualifications.userId, userId));
  if (unique.length > 0) {
    await tx
      .insert(userAdditionalQualifications)
      .values(unique.map((additionalQualificationId) => ({ userId, additionalQualificationId })));
  }
}

/**
 * A user moved to another facility keeps no additional qualification of the old one (they are
 * that facility's own list).
 */
export async function dropForeignAdditionalQualifications(tx: Tx, userId: number, facilityId: number | null) {
  const foreign = tx
    .select({ id: additionalQualifications.id })
    .from(additionalQualifications)
    .where(facilityId === null ? sql`true` : sql`${additionalQualifications.facilityId} <> ${facilityId}`);
  await tx
    .delete(userAdditionalQualifications)
    .where(
      and(
        eq(userAdditionalQualifications.userId, userId),
        inArray(userAdditionalQualifications.additionalQualificationId, foreign),
      ),
    );
}

/** PUT /external/user/{userId} {externalIDs}: replaces the set; only qualifications of the user's facility. */
export async function setUserAdditionalQualifications(
  db: Db,
  actor: Actor,
  userId: number,
  ids: number[],
): Promise<AdditionalQualification[]> {
  assertMay(actor, "user.edit");
  const unique = [...new Set(ids)];
  await db.transaction(async (tx) => {
    const target = await requireUser(tx, actor, "user.edit", userId);
    await writeUserAdditionalQualifications(tx, userId, target.facilityId, unique);
  });
  return getUserAdditionalQualifications(db, actor, userId);
}
