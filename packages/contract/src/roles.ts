import type { Role } from "./schemas/role";

/** Role names on the wire (ARCHITECTURE decision 1), most powerful first; the schema is schemas/role.ts. */
export const ROLES = ["superchris", "contentmanager", "administrator", "supervisor", "employee"] as const;

/** Roles that belong to no facility; every other role needs one (spec §5, §6). */
export const FACILITYLESS_ROLES: readonly Role[] = ["superchris", "contentmanager"];

/** superchris passes every role check (spec §6). */
export function hasAnyRole(roles: readonly Role[], allowed: readonly Role[]): boolean {
  return roles.includes("superchris") || roles.some((r) => allowed.includes(r));
}

/** Staff who see the progress overview, calendar, user search and help requests. */
export const STAFF_ROLES: readonly Role[] = ["administrator", "supervisor", "contentmanager"];
/** Roles that create and edit users. */
export const USER_EDITOR_ROLES: readonly Role[] = ["administrator", "contentmanager"];

/**
 * Learners: only the employee role has trainings — the topic grid, the progress ring, a
 * colleague's progress bars (spec §2). Not a role check that superchris passes: a superuser
 * without the employee role learns nothing.
 */
export function hasTrainings(roles: readonly Role[]): boolean {
  return roles.includes("employee");
}

/** The user search shows colleagues' progress cards to viewers who are not learners themselves (spec §2). */
export function seesColleagueProgress(viewer: readonly Role[]): boolean {
  return !hasTrainings(viewer);
}

/** Roles that see every facility (the rest are bound to their own). */
export function seesAllFacilities(roles: readonly Role[]): boolean {
  return roles.includes("superchris") || roles.includes("contentmanager");
}

/**
 * The roles `actor` may give (spec §6): superchris every role; contentmanager every role but
 * superchris; administrator administrator, supervisor and employee; nobody else any.
 */
export function grantableRoles(actor: readonly Role[]): Role[] {
  if (actor.includes("superchris")) return [...ROLES];
  if (actor.includes("contentmanager")) return ROLES.filter((r) => r !== "superchris");
  if (actor.includes("administrator")) return ["administrator", "supervisor", "employee"];
  return [];
}

/** Empty roles default to employee (spec §5); duplicates go. */
export function normaliseRoles(roles: readonly Role[] | undefined): Role[] {
  const unique = [...new Set(roles ?? [])];
  return unique.length === 0 ? ["employee"] : ROLES.filter((r) => unique.includes(r));
}

/**
 * Facility rule of spec §5: required for administrator, supervisor and employee, forbidden
 * for contentmanager and superchris; a mix of both kinds cannot be satisfied.
 */
export function facilityRequirement(roles: readonly Role[]): "required" | "forbidden" | "conflict" {
  const bound = roles.some((r) => !FACILITYLESS_ROLES.includes(r));
  const free = roles.some((r) => FACILITYLESS_ROLES.includes(r));
  if (bound && free) return "conflict";
  return free ? "forbidden" : "required";
}

/**
 * Roles toggling in the user form (spec §4): employee is kept alongside other roles of a facility
 * unless it is the only one, and switching the last role off falls back to employee. A role that
 * cannot stand beside the others (spec §5: superuser and Super-Admin have no facility, the rest
 * need one) replaces them, so the form never holds a role conflict: choosing Super-Admin for an
 * employee makes a Super-Admin, not a conflict.
 */
export function toggleRole(current: readonly Role[], role: Role): Role[] {
  if (current.includes(role)) return normaliseRoles(current.filter((r) => r !== role));
  const facilityless = FACILITYLESS_ROLES.includes(role);
  return normaliseRoles([...current.filter((r) => FACILITYLESS_ROLES.includes(r) === facilityless), role]);
}
