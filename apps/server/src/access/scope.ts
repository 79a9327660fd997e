import { ROLES, type Role } from "@carecampus/contract";
import { type Column, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { users } from "../db/schema";
import { type Action, type Actor, assertMay, facilityScope, notFound } from "./policy";

/** A user as the policies see them. */
export interface UserTarget {
  id: number;
  facilityId: number | null;
  roles: Role[];
  /** When the person left (issue 28); null for a current member. */
  archivedAt: Date | null;
}

/**
 * Which people an action may reach (issue 28): current members (every action of today), former
 * employees only (restore), or both (a person's data export, an erasure request, their
 * certificates). A person outside the set is answered like a missing one.
 */
export type People = "current" | "former" | "any";

/**
 * The users an actor may see, as one SQL condition on `users`: undefined for all (superchris,
 * contentmanager), the own facility's for everyone else, none without a facility.
 */
export function userScope(actor: Actor): SQL | undefined {
  const scope = facilityScope(actor);
  if (scope === "all") return undefined;
  return scope === null ? sql`false` : eq(users.facilityId, scope);
}

/**
 * Current members only (issue 28): a person deleted or left out by an import is archived, not
 * erased, and leaves every active list, count, licence limit and mail. One condition on `users`,
 * so that no query spells it differently.
 */
export const currentMember: SQL = isNull(users.archivedAt);

/** The same for a query without `users` in its FROM: the user `userId` names is a current member. */
export function isCurrentMember(userId: Column | SQL): SQL {
  return sql`exists (select 1 from "users" cm where cm."id" = ${userId} and cm."archived_at" is null)`;
}

export async function findUserTarget(db: Db | Tx, id: number): Promise<UserTarget | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      facilityId: users.facilityId,
      archivedAt: users.archivedAt,
      roles: sql<Role[] | null>`(select array_agg(ur."role") from "user_roles" ur where ur."user_id" = "users"."id")`,
    })
    .from(users)
    .where(eq(users.id, id));
  return row ? { ...row, roles: ROLES.filter((r) => row.roles?.includes(r)) } : undefined;
}

/**
 * The user `action` is done to, or the action's error: the role is checked first (a refused
 * role learns nothing about the user), then a missing and an invisible user get the same answer.
 */
export async function requireUser(
  db: Db | Tx,
  actor: Actor,
  action: Action,
  id: number,
  people: People = "current",
): Promise<UserTarget> {
  // The actor themselves exists: admission by role waits for the full decision (self may pass).
  if (id !== actor.id) assertMay(actor, action);
  const target = await findUserTarget(db, id);
  if (!target) throw notFound(action);
  const former = target.archivedAt !== null;
  if ((people === "current" && former) || (people === "former" && !former)) throw notFound(action);
  assertMay(actor, action, target);
  return target;
}
