import crypto from "node:crypto";
import {
  type AccountPatch,
  type AdminUser,
  Avatar,
  ErrorCode,
  generatePassword,
  hasInvisibleCharacters,
  isValidPassword,
  Language,
  loginKey,
  ROLES,
  type Role,
  type Salutation,
  type Theme,
  type User,
} from "@carecampus/contract";
import { and, eq, ne, sql } from "drizzle-orm";
import { type Actor, assertMay, notFound } from "../access/policy";
import { currentMember } from "../access/scope";
import { recordMatrixPeriods } from "../assignments/history";
import { auditSubject } from "../audit/people";
import { recordAudit } from "../audit/record";
import { revokeFeedsOfUser } from "../calendar/feed";
import type { Db, Tx } from "../db/client";
import { facilities, preferences, userActivities, userQualifications, userRoles, users } from "../db/schema";
import type { LimitDeps } from "../deps";
import { AppError } from "../errors";
import { themeOf } from "../preferences/service";
import { beginAttempt, clearPasswordFailures, passwordKey, renameKey } from "../security/limits";
import { hashPassword, verifyPassword } from "../security/passwords";

// Correlated subqueries are written with aliases: drizzle leaves columns unqualified inside sql templates.
const ROLES_OF_USER = sql<
  Role[] | null
>`(select array_agg(ur."role" order by ur."role") from "user_roles" ur where ur."user_id" = "users"."id")`;

/**
 * The user a login names, by the one normalisation of logins (contract `loginKey`). A login with
 * an invisible or formatting character names nobody, an account stored with one before the rule
 * (issue 27) included: a login attempt with it fails as invalid credentials, like any unknown login.
 * So does a former employee's: their login stays taken (isLoginTaken) until they are erased.
 */
export async function findUserByLogin(db: Db | Tx, login: string) {
  if (hasInvisibleCharacters(login)) return undefined;
  const rows = await db
    .select({ id: users.id, passwordHash: users.passwordHash, facilityId: users.facilityId })
    .from(users)
    // A former employee (archived) names nobody: their login answers like an unknown one (issue 28).
    .where(and(eq(users.loginKey, loginKey(login)), currentMember))
    .limit(1);
  return rows[0];
}

/** The whole user of spec §3 (without the password), as the account screens see it. */
/** The master data of a user (spec §3) as one projection: joined with facilities, aggregated lists. */
export const MASTER_DATA = {
  id: users.id,
  name: users.name,
  surname: users.surname,
  login: users.login,
  email: users.email,
  salutation: users.salutation,
  facilityId: facilities.id,
  facilityName: facilities.name,
  roles: ROLES_OF_USER,
  activities: sql<
    number[] | null
  >`(select array_agg(ua."activity_id" order by ua."activity_id") from "user_activities" ua where ua."user_id" = "users"."id")`,
  qualifications: sql<
    number[] | null
  >`(select array_agg(uq."qualification_id" order by uq."qualification_id") from "user_qualifications" uq where uq."user_id" = "users"."id")`,
};

export interface MasterDataRow {
  id: number;
  name: string;
  surname: string;
  login: string;
  email: string | null;
  salutation: string;
  facilityId: number | null;
  facilityName: string | null;
  roles: Role[] | null;
  activities: number[] | null;
  qualifications: number[] | null;
}

export function toMasterData(r: MasterDataRow): AdminUser {
  return {
    id: r.id,
    name: r.name,
    surname: r.surname,
    login: r.login,
    email: r.email,
    salutation: (["Mr", "Ms"].includes(r.salutation) ? r.salutation : "-") as Salutation,
    facility: r.facilityId !== null && r.facilityName !== null ? { id: r.facilityId, name: r.facilityName } : null,
    // Rank order (superchris first), whatever order the database returns.
    roles: ROLES.filter((role) => r.roles?.includes(role)),
    activities: r.activities ?? [],
    qualifications: r.qualifications ?? [],
  };
}

/** The administration's view of a user (the caller has been admitted by the access module). */
export async function loadAdminUser(db: Db | Tx, id: number): Promise<AdminUser> {
  const [row] = await db
    .select(MASTER_DATA)
    .from(users)
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .where(eq(users.id, id));
  if (!row) throw new AppError(ErrorCode.userNotFound, "User not found");
  return toMasterData(row);
}

/**
 * The whole user of spec §3 (without the password), as the account screens see it. A user who
 * has not chosen a theme has the installation's (`installationTheme`, THEME).
 */
export async function getUser(db: Db | Tx, id: number, installationTheme: Theme): Promise<User | undefined> {
  const rows = await db
    .select({
      ...MASTER_DATA,
      showHelpRedirect: users.showHelpRedirect,
      passive: users.passive,
      expiresAt: users.expiresAt,
      avatar: preferences.avatar,
      language: preferences.language,
      theme: preferences.theme,
      contentLanguage: preferences.contentLanguage,
    })
    .from(users)
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .leftJoin(preferences, eq(preferences.userId, users.id))
    .where(eq(users.id, id))
    .limit(1);
  const r = rows[0];
  if (!r) return undefined;
  return {
    ...toMasterData(r),
    show_help_redirect: r.showHelpRedirect,
    avatar: Avatar.catch("female").parse(r.avatar),
    language: Language.catch("de").parse(r.language),
    theme: themeOf(r.theme, installationTheme),
    content_language: r.contentLanguage ?? null,
    passive: r.passive,
    expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
  };
}

/** GET /auth/users/{id}: the user themselves, or a user within the staff member's scope; else 1002. */
export async function getVisibleUser(db: Db, actor: Actor, id: number, installationTheme: Theme): Promise<User> {
  const user = await getUser(db, id, installationTheme);
  // Users outside the caller's scope are answered as not found: never their data.
  if (!user) throw notFound("user.view");
  assertMay(actor, "user.view", { id: user.id, facilityId: user.facility?.id ?? null, roles: user.roles });
  return user;
}

export interface NewUser {
  login: string;
  name: string;
  surname: string;
  password: string;
  roles: Role[];
  facilityId: number | null;
  email?: string | null;
  salutation?: Salutation;
  activityIds?: number[];
  qualificationIds?: number[];
  avatar?: Avatar;
  /** The app's clock at the creation (the database's clock when absent): the matrix history's start. */
  createdAt?: Date;
}

/** Inserts a user with roles, preferences and lists; call inside a transaction. */
export async function insertUser(tx: Db | Tx, u: NewUser, passwordHash?: string): Promise<number> {
  const inserted = await tx
    .insert(users)
    .values({
      login: u.login,
      loginKey: loginKey(u.login),
      name: u.name,
      surname: u.surname,
      salutation: u.salutation ?? "-",
      email: u.email ?? null,
      facilityId: u.facilityId,
      passwordHash: passwordHash ?? (await hashPassword(u.password)),
      ...(u.createdAt ? { createdAt: u.createdAt } : {}),
    })
    .returning({ id: users.id, createdAt: users.createdAt });
  const { id, createdAt } = inserted[0] as { id: number; createdAt: Date };
  const roles = u.roles.length > 0 ? u.roles : (["employee"] as Role[]);
  await tx.insert(userRoles).values(roles.map((role) => ({ userId: id, role })));
  await tx.insert(preferences).values({ userId: id, avatar: u.avatar ?? "female" });
  if (u.activityIds?.length) {
    await tx.insert(userActivities).values(u.activityIds.map((activityId) => ({ userId: id, activityId })));
  }
  if (u.qualificationIds?.length) {
    await tx
      .insert(userQualifications)
      .values(u.qualificationIds.map((qualificationId) => ({ userId: id, qualificationId })));
  }
  // Their first period of the training matrix (issue 29): every training of their facility.
  await recordMatrixPeriods(tx, [id], createdAt);
  return id;
}

export async function isLoginTaken(db: Db | Tx, login: string, exceptUserId?: number): Promise<boolean> {
  const same = eq(users.loginKey, loginKey(login));
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId === undefined ? same : and(same, ne(users.id, exceptUserId)))
    .limit(1);
  return rows.length > 0;
}

/**
 * The account changes of spec §7 PATCH /auth/users/{id}: login, e-mail or password. The old
 * password is checked under the same failure limit as a login (one counter per account), so a
 * session token alone cannot guess its way to the password; a rename to a login in use is a
 * validation error (400/1001) counted like a failed login, since it tells that the login exists.
 */
export async function changeAccount(deps: LimitDeps, userId: number, patch: AccountPatch, ip: string): Promise<void> {
  const { db } = deps;
  switch (patch.property) {
    case "login": {
      const login = patch.value.value;
      const attempt = await beginAttempt(deps, renameKey(userId), ip, "refund");
      const renamed = await db.transaction(async (tx) => {
        if (await isLoginTaken(tx, login, userId)) return false;
        await tx
          .update(users)
          .set({ login, loginKey: loginKey(login), updatedAt: deps.now() })
          .where(eq(users.id, userId));
        return true;
      });
      if (!renamed) throw new AppError(ErrorCode.loginInUse, "Username already in use", 400);
      await attempt.succeeded();
      return;
    }
    case "email":
      await db.update(users).set({ email: patch.value.value, updatedAt: deps.now() }).where(eq(users.id, userId));
      return;
    case "password": {
      const { password, new_password } = patch.value;
      const rows = await db
        .select({ hash: users.passwordHash, login: users.login })
        .from(users)
        .where(eq(users.id, userId));
      const attempt = await beginAttempt(deps, passwordKey(userId, rows[0]?.login ?? ""), ip);
      if (!(await verifyPassword(rows[0]?.hash, password))) {
        // 400, not 401: a wrong old password must not end the session in the client.
        throw new AppError(ErrorCode.invalidCredentials, "The current password is wrong", 400);
      }
      await attempt.succeeded();
      if (!isValidPassword(new_password)) {
        throw new AppError(ErrorCode.validation, "The new password does not meet the password rules");
      }
      const hash = await hashPassword(new_password);
      await db.transaction((tx) => storePasswordHash(tx, userId, hash, deps.now()));
      return;
    }
  }
}

/** PATCH /auth/users/{id}: only the user themselves (or a superuser) changes an account. */
export async function changeOwnAccount(
  deps: LimitDeps,
  actor: Actor,
  userId: number,
  patch: AccountPatch,
  ip: string,
  installationTheme: Theme,
): Promise<User> {
  assertMay(actor, "user.account", { id: userId });
  await changeAccount(deps, userId, patch, ip);
  const user = await getUser(deps.db, userId, installationTheme);
  if (!user) throw notFound("user.account");
  return user;
}

/**
 * Gives a user a new generated password (a first superuser after start, or
 * `npm run admin:reset-password`): their sessions end and their failed-login lock is lifted.
 * The login and the password, or undefined for an unknown user. `audited`: the reset is a
 * change to record (the command-line reset, by the system actor); a first password is not.
 */
export async function setGeneratedPassword(
  db: Db | Tx,
  userId: number,
  audited = false,
): Promise<{ login: string; password: string } | undefined> {
  const password = generatePassword((n) => crypto.randomInt(n));
  const hash = await hashPassword(password);
  const row = await db.transaction(async (tx) => {
    const now = new Date();
    const stored = await storePasswordHash(tx, userId, hash, now);
    if (stored) await clearPasswordFailures(tx, stored.id);
    const subject = stored && audited ? await auditSubject(tx, stored.id) : undefined;
    if (subject) await recordAudit(tx, { kind: "user.password_reset", actor: null, ...subject, data: {} }, now);
    return stored;
  });
  return row ? { login: row.login, password } : undefined;
}

/**
 * A new password of a user, in the caller's transaction: raising token_version ends every
 * session (they log in again), and the calendar feed address stops working. The user's id and
 * login, or undefined for an unknown user.
 */
async function storePasswordHash(
  tx: Tx,
  userId: number,
  hash: string,
  now: Date,
): Promise<{ id: number; login: string } | undefined> {
  const [row] = await tx
    .update(users)
    .set({ passwordHash: hash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({ id: users.id, login: users.login });
  if (row) await revokeFeedsOfUser(tx, row.id);
  return row;
}

export async function hideHelpRedirect(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ showHelpRedirect: false }).where(eq(users.id, userId));
}

/** Ids of users holding `role` in `facilityId` (facility null: users of every facility). */
export async function usersWithRole(db: Db | Tx, role: Role, facilityId: number | null): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .where(
      and(eq(userRoles.role, role), currentMember, facilityId === null ? undefined : eq(users.facilityId, facilityId)),
    );
  return rows.map((r) => r.id);
}

export async function countUsers(db: Db | Tx): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return rows[0]?.n ?? 0;
}
