import {
  type AdminUser,
  type AdminUserList,
  ErrorCode,
  facilityRequirement,
  isValidPassword,
  loginKey,
  normaliseRoles,
  type Role,
  searchKey,
  type UserCreate,
  type UserUpdate,
} from "@carecampus/contract";
import { and, asc, desc, eq, inArray, isNotNull, isNull, like, notInArray, or, type SQL, sql } from "drizzle-orm";
import { type Actor, assertMay, assertMayGrant, facilityScope } from "../access/policy";
import { currentMember, requireUser, userScope } from "../access/scope";
import { recordMatrixPeriods } from "../assignments/history";
import { writeTrainingMatrix } from "../assignments/service";
import { recordAudit } from "../audit/record";
import { revokeFeedsOfUser } from "../calendar/feed";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import {
  activities,
  facilities,
  qualifications,
  userActivities,
  userQualifications,
  userRoles,
  users,
} from "../db/schema";
import { runTransaction } from "../db/transaction";
import type { DbClock, UserWriteDeps } from "../deps";
import { AppError } from "../errors";
import { dropForeignAdditionalQualifications, writeUserAdditionalQualifications } from "../qualifications/service";
import { hashPassword } from "../security/passwords";
import { archivePeople, assertRoomFor } from "./archive";
import { searchKeySql } from "./search";
import { insertUser, isLoginTaken, loadAdminUser, MASTER_DATA, toMasterData } from "./service";

const LIST_LIMIT = 500;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * GET /auth/admin/users[?query=][&former=true]: search over name, surname and login, within
 * scope; the current members, or the former employees (issue 28) with the day they left.
 */
export async function listUsers(
  db: Db,
  actor: Actor,
  query: string | undefined,
  former = false,
): Promise<AdminUserList> {
  assertMay(actor, "users.list");
  if (former) assertMay(actor, "users.former");
  const q = (query ?? "").normalize("NFC").trim();
  const words = q.split(/\s+/).filter(Boolean).slice(0, 5);
  const conditions = [
    userScope(actor),
    former ? and(isNotNull(users.archivedAt), isNull(users.erasedAt)) : currentMember,
  ];
  for (const w of words) {
    // Names in their search form ('mueller' finds Müller, 'lefevre' Lefèvre: contract searchKey),
    // logins in their one normalised form (contract loginKey).
    const namePattern = `%${escapeLike(searchKey(w))}%`;
    const loginPattern = `%${escapeLike(loginKey(w))}%`;
    conditions.push(
      or(
        like(searchKeySql(users.name), namePattern),
        like(searchKeySql(users.surname), namePattern),
        like(users.loginKey, loginPattern),
      ),
    );
  }
  const where = and(...conditions.filter((c): c is SQL => c !== undefined));
  const [rows, [count]] = await Promise.all([
    db
      .select({ ...MASTER_DATA, archivedAt: users.archivedAt })
      .from(users)
      .leftJoin(facilities, eq(facilities.id, users.facilityId))
      .where(where)
      // Former employees: who left last first (the one removed by mistake is at the top).
      .orderBy(...(former ? [desc(users.archivedAt)] : []), asc(users.surname), asc(users.name), asc(users.id))
      .limit(LIST_LIMIT),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return {
    users: rows.map((r) => ({
      ...toMasterData(r),
      ...(former && r.archivedAt ? { left_at: r.archivedAt.toISOString() } : {}),
    })),
    total: count?.n ?? 0,
  };
}

/** GET /auth/admin/users/{id}: staff, a user of their facilities (else 1002, like a missing one). */
export async function getAdminUser(db: Db, actor: Actor, id: number): Promise<AdminUser> {
  await requireUser(db, actor, "user.read", id);
  return loadAdminUser(db, id);
}

/** Resolves and checks the facility for a set of roles (spec §5, §6). */
async function resolveFacility(
  tx: Db | Tx,
  actor: Actor,
  roles: Role[],
  requested: number | null | undefined,
): Promise<number | null> {
  const rule = facilityRequirement(roles);
  if (rule === "conflict") {
    throw new AppError(
      ErrorCode.validation,
      "Super-Admin and superuser have no facility; they cannot hold facility roles too",
    );
  }
  if (rule === "forbidden") {
    if (requested !== null && requested !== undefined) {
      throw new AppError(ErrorCode.validation, "Super-Admin and superuser must not be assigned to a facility");
    }
    return null;
  }
  // Administrators act inside their own facility only.
  const scope = facilityScope(actor);
  const facilityId = scope === "all" ? requested : (requested ?? scope);
  if (facilityId === null || facilityId === undefined) {
    throw new AppError(ErrorCode.facilityRequired, "Users need to be assigned to a facility");
  }
  assertMay(actor, "user.place", { facilityId });
  const [row] = await tx.select({ id: facilities.id }).from(facilities).where(eq(facilities.id, facilityId));
  if (!row) throw new AppError(ErrorCode.facilityNotFound, "Facility not found");
  return facilityId;
}

async function assertKnownIds(tx: Db | Tx, activityIds: number[] = [], qualificationIds: number[] = []): Promise<void> {
  if (activityIds.length > 0) {
    const found = await tx.select({ id: activities.id }).from(activities).where(inArray(activities.id, activityIds));
    if (found.length !== new Set(activityIds).size) throw new AppError(ErrorCode.validation, "Unknown area of focus");
  }
  if (qualificationIds.length > 0) {
    const found = await tx
      .select({ id: qualifications.id })
      .from(qualifications)
      .where(inArray(qualifications.id, qualificationIds));
    if (found.length !== new Set(qualificationIds).size)
      throw new AppError(ErrorCode.validation, "Unknown qualification");
  }
}

function assertPassword(password: string): void {
  if (!isValidPassword(password)) {
    throw new AppError(
      ErrorCode.validation,
      "The password needs at least 8 characters with a lower-case and an upper-case letter, a digit and one of @$!%*?&#+-",
    );
  }
}

/**
 * The training matrix and additional qualifications sent with the user (the user form saves
 * them together): written in the user's transaction, so a refusal of either saves nothing.
 */
async function writeAssignments(
  tx: Tx,
  actor: Actor,
  userId: number,
  facilityId: number | null,
  input: Pick<UserUpdate, "trainings" | "additional_qualifications">,
  now: Date,
): Promise<void> {
  if (input.trainings !== undefined) {
    await writeTrainingMatrix(
      tx,
      { userId, actor, now },
      input.trainings === null ? null : input.trainings.map((id) => ({ id })),
    );
  }
  if (input.additional_qualifications !== undefined) {
    await writeUserAdditionalQualifications(tx, userId, facilityId, input.additional_qualifications);
  }
}

/** POST /auth/admin/users: every rule of spec §5 and §6, in one transaction. */
export async function createUserByAdmin(deps: UserWriteDeps, actor: Actor, input: UserCreate): Promise<AdminUser> {
  assertMay(actor, "users.create");
  const roles = normaliseRoles(input.roles);
  assertMayGrant(actor, roles);
  assertPassword(input.password);
  const hash = await hashPassword(input.password);
  const id = await deps.db.transaction(async (tx) => {
    // Serialises creations: the user limit and the login check hold under concurrency.
    await lockForTransaction(tx, "users");
    const facilityId = await resolveFacility(tx, actor, roles, input.facility);
    await assertKnownIds(tx, input.activities, input.qualifications);
    if (await isLoginTaken(tx, input.login)) throw new AppError(ErrorCode.loginInUse, "Username already in use");
    // Former employees hold no licence (issue 28).
    await assertRoomFor(tx, deps.maxUsers, 1);
    const userId = await insertUser(
      tx,
      {
        login: input.login,
        name: input.name,
        surname: input.surname,
        password: input.password,
        roles,
        facilityId,
        email: input.email || null,
        salutation: input.salutation ?? "-",
        activityIds: [...new Set(input.activities ?? [])],
        qualificationIds: [...new Set(input.qualifications ?? [])],
        createdAt: deps.now(),
      },
      hash,
    );
    await recordAudit(
      tx,
      {
        kind: "user.created",
        actor,
        facilityId,
        subjectId: userId,
        data: {
          roles,
          facility: facilityId,
          activities: input.activities ?? [],
          qualifications: input.qualifications ?? [],
        },
        personal: { subject: `${input.name} ${input.surname}`.trim(), login: input.login, email: input.email || null },
      },
      deps.now(),
    );
    await writeAssignments(tx, actor, userId, facilityId, input, deps.now());
    return userId;
  });
  return loadAdminUser(deps.db, id);
}

/** PATCH /auth/admin/users/{id}. */
export async function updateUserByAdmin(
  deps: DbClock,
  actor: Actor,
  id: number,
  patch: UserUpdate,
): Promise<AdminUser> {
  assertMay(actor, "user.edit");
  if (patch.password !== undefined) assertPassword(patch.password);
  const hash = patch.password !== undefined ? await hashPassword(patch.password) : undefined;
  await deps.db.transaction(async (tx) => {
    // Nobody edits a user holding a role they could not grant (an administrator, a superuser).
    await requireUser(tx, actor, "user.edit", id);
    const current = await loadAdminUser(tx, id);
    const roles = patch.roles !== undefined ? normaliseRoles(patch.roles) : current.roles;
    assertMayGrant(actor, roles, current);
    const facilityId = await resolveFacility(
      tx,
      actor,
      roles,
      patch.facility !== undefined ? patch.facility : (current.facility?.id ?? null),
    );
    await assertKnownIds(tx, patch.activities, patch.qualifications);
    if (patch.login !== undefined && (await isLoginTaken(tx, patch.login, id))) {
      throw new AppError(ErrorCode.loginInUse, "Username already in use");
    }
    await tx
      .update(users)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.surname !== undefined ? { surname: patch.surname } : {}),
        ...(patch.login !== undefined ? { login: patch.login, loginKey: loginKey(patch.login) } : {}),
        ...(patch.salutation !== undefined ? { salutation: patch.salutation } : {}),
        ...(patch.email !== undefined ? { email: patch.email || null } : {}),
        ...(hash !== undefined ? { passwordHash: hash, tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
        facilityId,
        updatedAt: deps.now(),
      })
      .where(eq(users.id, id));
    // A new password ends the sessions (token_version) and the calendar feed address.
    if (hash !== undefined) await revokeFeedsOfUser(tx, id);
    if (patch.roles !== undefined) {
      // Roles kept stay as they were given (by hand or by single sign-on, issue 32).
      await tx.delete(userRoles).where(and(eq(userRoles.userId, id), notInArray(userRoles.role, roles)));
      await tx
        .insert(userRoles)
        .values(roles.map((role) => ({ userId: id, role })))
        .onConflictDoNothing();
    }
    if (patch.activities !== undefined) {
      await tx.delete(userActivities).where(eq(userActivities.userId, id));
      const ids = [...new Set(patch.activities)];
      if (ids.length) await tx.insert(userActivities).values(ids.map((activityId) => ({ userId: id, activityId })));
    }
    if (patch.qualifications !== undefined) {
      await tx.delete(userQualifications).where(eq(userQualifications.userId, id));
      const ids = [...new Set(patch.qualifications)];
      if (ids.length)
        await tx.insert(userQualifications).values(ids.map((qualificationId) => ({ userId: id, qualificationId })));
    }
    if (facilityId !== (current.facility?.id ?? null)) await dropForeignAdditionalQualifications(tx, id, facilityId);
    // A new facility is a new period of the matrix history (issue 29).
    await recordMatrixPeriods(tx, [id], deps.now());
    await writeAssignments(tx, actor, id, facilityId, patch, deps.now());
    await auditUserUpdate(tx, actor, current, await loadAdminUser(tx, id), patch, deps.now());
  });
  return loadAdminUser(deps.db, id);
}

/** Master data kept outside the audit hash (decision 21): names, login, e-mail, salutation. */
const PERSONAL_FIELDS = ["name", "surname", "login", "email", "salutation"] as const;
/** Master data recorded before and after in the hashed part: what the person may do and where. */
const RECORDED_FIELDS = ["roles", "facility", "activities", "qualifications"] as const;

/**
 * The audit entries of an edit: user.updated with the fields changed (names, login and e-mail
 * before and after only in `personal`), user.password_reset when a password was set. Never the
 * password itself.
 */
async function auditUserUpdate(
  tx: Tx,
  actor: Actor,
  before: AdminUser,
  after: AdminUser,
  patch: UserUpdate,
  now: Date,
): Promise<void> {
  const comparable = (user: AdminUser) => ({
    ...user,
    facility: user.facility?.id ?? null,
    roles: [...user.roles].sort(),
    activities: [...user.activities].sort((a, b) => a - b),
    qualifications: [...user.qualifications].sort((a, b) => a - b),
  });
  const [was, is] = [comparable(before), comparable(after)];
  const differs = (field: keyof typeof was) => JSON.stringify(was[field]) !== JSON.stringify(is[field]);
  const personalChanged = PERSONAL_FIELDS.filter(differs);
  const recordedChanged = RECORDED_FIELDS.filter(differs);
  const fields = [
    ...personalChanged,
    ...recordedChanged,
    ...(patch.additional_qualifications !== undefined ? ["additional_qualifications"] : []),
  ];
  const base = {
    actor,
    facilityId: after.facility?.id ?? before.facility?.id ?? null,
    subjectId: after.id,
    personal: { subject: `${after.name} ${after.surname}`.trim() },
  };
  if (fields.length > 0) {
    await recordAudit(
      tx,
      {
        ...base,
        kind: "user.updated",
        data: {
          fields,
          before: Object.fromEntries(recordedChanged.map((f) => [f, was[f]])),
          after: Object.fromEntries(recordedChanged.map((f) => [f, is[f]])),
        },
        personal: {
          ...base.personal,
          before: Object.fromEntries(personalChanged.map((f) => [f, was[f]])),
          after: Object.fromEntries(personalChanged.map((f) => [f, is[f]])),
        },
      },
      now,
    );
  }
  if (patch.password !== undefined) await recordAudit(tx, { ...base, kind: "user.password_reset", data: {} }, now);
}

/**
 * DELETE /auth/admin/users/{id}: never oneself, never a user with a role the actor cannot grant.
 * The person is archived, not erased (issue 28): users/archive.ts.
 */
export async function deleteUserByAdmin(deps: DbClock, actor: Actor, id: number): Promise<void> {
  assertMay(actor, "user.delete");
  await runTransaction(deps.db, async (tx) => {
    await requireUser(tx, actor, "user.delete", id);
    await archivePeople(tx, actor, [id], "delete", deps.now());
  });
}
