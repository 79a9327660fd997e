import {
  type AdminUser,
  type AdminUserList,
  ErrorCode,
  facilityRequirement,
  grantableRoles,
  hasAnyRole,
  isValidPassword,
  normaliseRoles,
  type Role,
  STAFF_ROLES,
  seesAllFacilities,
  USER_EDITOR_ROLES,
  type UserCreate,
  type UserUpdate,
} from "@carecampus/contract";
import { and, asc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type { AppDeps } from "../app";
import { writeTrainingMatrix } from "../assignments/service";
import { type Actor, mayAccessFacility } from "../auth/guards";
import { hashPassword } from "../auth/passwords";
import type { Db, Tx } from "../db/client";
import {
  activities,
  facilities,
  qualifications,
  userActivities,
  userQualifications,
  userRoles,
  users,
} from "../db/schema";
import { AppError } from "../errors";
import { dropForeignAdditionalQualifications, writeUserAdditionalQualifications } from "../qualifications/service";
import { insertUser, isLoginTaken, MASTER_DATA, toMasterData } from "./service";

const LIST_LIMIT = 500;

/** Staff may list users; an employee may not (1015). */
export function assertStaff(actor: Actor): void {
  if (!hasAnyRole(actor.roles, STAFF_ROLES)) {
    throw new AppError(ErrorCode.notAllowedToSeeEmployees, "You are not allowed to see employees");
  }
}

export function assertEditor(actor: Actor): void {
  if (!hasAnyRole(actor.roles, USER_EDITOR_ROLES))
    throw new AppError(ErrorCode.forbidden, "Your role may not edit users");
}

/** Users outside the actor's facilities are invisible: superchris/contentmanager see all. */
function scope(actor: Actor): SQL | undefined {
  if (seesAllFacilities(actor.roles)) return undefined;
  return actor.facilityId === null ? sql`false` : eq(users.facilityId, actor.facilityId);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /auth/admin/users[?query=]: search over name, surname and login, within scope. */
export async function listUsers(db: Db, actor: Actor, query: string | undefined): Promise<AdminUserList> {
  assertStaff(actor);
  const q = (query ?? "").normalize("NFC").trim();
  const words = q.split(/\s+/).filter(Boolean).slice(0, 5);
  const conditions = [scope(actor)];
  for (const w of words) {
    const pattern = `%${escapeLike(w)}%`;
    conditions.push(or(ilike(users.name, pattern), ilike(users.surname, pattern), ilike(users.login, pattern)));
  }
  const where = and(...conditions.filter((c): c is SQL => c !== undefined));
  const [rows, [count]] = await Promise.all([
    db
      .select(MASTER_DATA)
      .from(users)
      .leftJoin(facilities, eq(facilities.id, users.facilityId))
      .where(where)
      .orderBy(asc(users.surname), asc(users.name), asc(users.id))
      .limit(LIST_LIMIT),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return { users: rows.map(toMasterData), total: count?.n ?? 0 };
}

/** A user the actor may see, or 1002 — missing and invisible users look alike. */
export async function loadVisible(db: Db | Tx, actor: Actor, id: number): Promise<AdminUser> {
  const [row] = await db
    .select(MASTER_DATA)
    .from(users)
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .where(eq(users.id, id));
  const user = row ? toMasterData(row) : undefined;
  // Invisible and missing users get the same answer: never another facility's data.
  if (!user || (user.id !== actor.id && !mayAccessFacility(actor, user.facility?.id ?? null))) {
    throw new AppError(ErrorCode.userNotFound, "User not found");
  }
  return user;
}

export async function getAdminUser(db: Db, actor: Actor, id: number): Promise<AdminUser> {
  assertStaff(actor);
  return loadVisible(db, actor, id);
}

export function assertGrantable(actor: Actor, roles: readonly Role[]): void {
  const allowed = grantableRoles(actor.roles);
  const refused = roles.filter((r) => !allowed.includes(r));
  if (refused.length > 0)
    throw new AppError(ErrorCode.forbidden, `You may not grant the role(s): ${refused.join(", ")}`);
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
  const facilityId = seesAllFacilities(actor.roles) ? requested : (requested ?? actor.facilityId);
  if (facilityId === null || facilityId === undefined) {
    throw new AppError(ErrorCode.facilityRequired, "Users need to be assigned to a facility");
  }
  if (!mayAccessFacility(actor, facilityId)) throw new AppError(ErrorCode.facilityNotFound, "Facility not found");
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
      { userId, by: actor.id, now },
      input.trainings === null ? null : input.trainings.map((id) => ({ id })),
    );
  }
  if (input.additional_qualifications !== undefined) {
    await writeUserAdditionalQualifications(tx, userId, facilityId, input.additional_qualifications);
  }
}

/** POST /auth/admin/users: every rule of spec §5 and §6, in one transaction. */
export async function createUserByAdmin(deps: AppDeps, actor: Actor, input: UserCreate): Promise<AdminUser> {
  assertEditor(actor);
  const roles = normaliseRoles(input.roles);
  assertGrantable(actor, roles);
  assertPassword(input.password);
  const hash = await hashPassword(input.password);
  const id = await deps.database.db.transaction(async (tx) => {
    // Serialises creations: the user limit and the login check hold under concurrency.
    await tx.execute(sql`select pg_advisory_xact_lock(42003)`);
    const facilityId = await resolveFacility(tx, actor, roles, input.facility);
    await assertKnownIds(tx, input.activities, input.qualifications);
    if (await isLoginTaken(tx, input.login)) throw new AppError(ErrorCode.loginInUse, "Username already in use");
    const max = deps.config.maxUsers;
    if (max !== undefined) {
      const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
      if ((row?.n ?? 0) >= max) throw new AppError(ErrorCode.maxUsersReached, "Maximum number of users reached");
    }
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
      },
      hash,
    );
    await writeAssignments(tx, actor, userId, facilityId, input, deps.now());
    return userId;
  });
  return loadVisible(deps.database.db, actor, id);
}

/** PATCH /auth/admin/users/{id}. */
export async function updateUserByAdmin(
  deps: AppDeps,
  actor: Actor,
  id: number,
  patch: UserUpdate,
): Promise<AdminUser> {
  assertEditor(actor);
  if (patch.password !== undefined) assertPassword(patch.password);
  const hash = patch.password !== undefined ? await hashPassword(patch.password) : undefined;
  await deps.database.db.transaction(async (tx) => {
    const current = await loadVisible(tx, actor, id);
    // Nobody edits a user holding a role they could not grant (an administrator, a superuser).
    assertGrantable(actor, current.roles);
    const roles = patch.roles !== undefined ? normaliseRoles(patch.roles) : current.roles;
    assertGrantable(actor, roles);
    if (id === actor.id && patch.roles !== undefined && !roles.every((r) => current.roles.includes(r))) {
      throw new AppError(ErrorCode.forbidden, "You cannot give yourself new roles");
    }
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
        ...(patch.login !== undefined ? { login: patch.login } : {}),
        ...(patch.salutation !== undefined ? { salutation: patch.salutation } : {}),
        ...(patch.email !== undefined ? { email: patch.email || null } : {}),
        ...(hash !== undefined ? { passwordHash: hash, tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
        facilityId,
        updatedAt: deps.now(),
      })
      .where(eq(users.id, id));
    if (patch.roles !== undefined) {
      await tx.delete(userRoles).where(eq(userRoles.userId, id));
      await tx.insert(userRoles).values(roles.map((role) => ({ userId: id, role })));
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
    await writeAssignments(tx, actor, id, facilityId, patch, deps.now());
  });
  return loadVisible(deps.database.db, actor, id);
}

/** DELETE /auth/admin/users/{id}: never oneself, never a user with a role the actor cannot grant. */
export async function deleteUserByAdmin(db: Db, actor: Actor, id: number): Promise<void> {
  assertEditor(actor);
  await db.transaction(async (tx) => {
    const target = await loadVisible(tx, actor, id);
    if (target.id === actor.id) throw new AppError(ErrorCode.forbidden, "You cannot delete yourself");
    assertGrantable(actor, target.roles);
    await tx.delete(users).where(eq(users.id, id));
  });
}
