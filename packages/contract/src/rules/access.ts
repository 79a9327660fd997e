import { hasAnyRole, STAFF_ROLES, USER_EDITOR_ROLES } from "../roles";
import type { Role } from "../schemas/role";

/*
 * Who may do what, by role alone (spec §6; issue 26 "one place for each kind of rule"). The
 * server's access module (apps/server/src/access/policy.ts) admits by this table and adds what
 * only it can know: the facility scope (another facility's thing is 404), the actor acting on
 * themselves, the roles of the user acted on, and the error each refusal gets. The web app
 * shows a menu item or a button by the same table, so the two never disagree on a role.
 */

const EDITORS: readonly Role[] = ["administrator", "contentmanager"];
const SUPER_ADMINS: readonly Role[] = ["contentmanager"];

/** Roles admitted to each action (superchris passes every role check); null: every logged-in user. */
export const ACCESS_ROLES = {
  /** Quiz and learning pages: only learners have trainings (spec §2). */
  "learning.take": ["employee"],
  "help.ask": ["employee"],
  /** User search and the choices of a matrix. */
  "users.list": STAFF_ROLES,
  "catalogue.read": STAFF_ROLES,
  "users.create": USER_EDITOR_ROLES,
  /** CSV import: superusers only (spec §6 "sees user import"). */
  "users.import": [],
  "user.place": USER_EDITOR_ROLES,
  "facilities.list": EDITORS,
  "facilities.create": SUPER_ADMINS,
  "overview.read": STAFF_ROLES,
  /** The overview's xlsx export: superusers and Super-Admins (spec §6). */
  "overview.export": SUPER_ADMINS,
  "qualifications.list": STAFF_ROLES,
  "qualifications.create": USER_EDITOR_ROLES,
  /** Another user's account data and progress (everyone sees their own). */
  "user.view": STAFF_ROLES,
  "certificate.view": STAFF_ROLES,
  /** Another user's account settings: superusers only (everyone has their own). */
  "user.account": [],
  "user.read": STAFF_ROLES,
  "user.qualifications.read": STAFF_ROLES,
  /** Edit and delete user buttons (spec §2 employee search): administrator, contentmanager, superchris. */
  "user.edit": USER_EDITOR_ROLES,
  "user.delete": USER_EDITOR_ROLES,
  /** Passive trainings marked passed: supervisors too (ARCHITECTURE decision 5). */
  "training.markPassed": STAFF_ROLES,
  "help.read": STAFF_ROLES,
  "help.handle": STAFF_ROLES,
  /** 'Content needs fixing' and its work list: the content's owners. */
  "help.flagContent": SUPER_ADMINS,
  "calendar.read": STAFF_ROLES,
  "calendar.plan": STAFF_ROLES,
  /** The staff version of the tutorial (spec §6 'Help tutorial'). */
  "tutorial.admin": STAFF_ROLES,
  /** Wiki (decision 14): common pages are the Super-Admins', a facility's own its administrators' too. */
  "wiki.editCommon": SUPER_ADMINS,
  "wiki.editFacility": EDITORS,
  "wiki.upload": EDITORS,
  /** Seeing a facility's pages and a facility's page: everyone, within their facility. */
  "wiki.readFacility": null,
  "wiki.page": null,
  "wiki.confirmations": STAFF_ROLES,
  /** A question's or a wiki page's image or video: everyone, a facility's only within it. */
  "media.view": null,
  "partnerCourses.read": STAFF_ROLES,
  /** Authoring (issue 16): staff read, a facility's administrators and Super-Admins write. */
  "authoring.read": STAFF_ROLES,
  "authoring.editFacility": EDITORS,
  "authoring.editCommon": SUPER_ADMINS,
  "authoring.upload": EDITORS,
  /**
   * Records that last (issue 28): former employees (archived, not erased), restoring one, a
   * person's data export and erasure request: whoever edits users, within their facility.
   */
  "users.former": USER_EDITOR_ROLES,
  "user.restore": USER_EDITOR_ROLES,
  "user.export": USER_EDITOR_ROLES,
  "user.erasure": USER_EDITOR_ROLES,
  /** The audit trail: superusers everything, administrators their facility's entries. */
  "audit.read": ["administrator"],
  /** Whether the audit chain is intact: superusers only. */
  "audit.verify": [],
  /** Revoking a certificate (issue 29): whoever edits users, within their facility. */
  "certificate.revoke": USER_EDITOR_ROLES,
  /** The facility's evidence at a date (issue 29): staff who read the overview, within their facility. */
  "evidence.read": STAFF_ROLES,
  /** The staff start page (issue 30): who is red or orange, open help requests, attendance, confirmations. */
  "home.staff": STAFF_ROLES,
} as const satisfies Record<string, readonly Role[] | null>;

export type AccessAction = keyof typeof ACCESS_ROLES;
export const ACCESS_ACTIONS = Object.keys(ACCESS_ROLES) as AccessAction[];

/**
 * Does the role admit the action? Before facility scope and self: the web shows a button by
 * it, the server admits a request by it and then checks what the action is done to.
 */
export function can(roles: readonly Role[], action: AccessAction): boolean {
  const allowed: readonly Role[] | null = ACCESS_ROLES[action];
  return allowed === null || hasAnyRole(roles, allowed);
}

/** The action that opens each route of spec §2; null: every logged-in user. */
export const ROUTE_ACTIONS = {
  home: null,
  topic: "learning.take",
  /** A learner's own help requests and their replies (issue 30). */
  myQuestions: "help.ask",
  profile: null,
  account: null,
  editUser: "users.create",
  progress: "overview.read",
  calendar: "calendar.plan",
  users: "users.list",
  helpRequests: "help.read",
  /** External courses of a partner: who did which (only with show-external-trainings). */
  partnerCourses: "partnerCourses.read",
  /** Authoring (issue 16): administrators and Super-Admins write, supervisors read. */
  authoring: "authoring.read",
  help: null,
  wiki: null,
  /** The audit trail (issue 28). */
  audit: "audit.read",
  /** The evidence at a date (issue 29). */
  evidence: "evidence.read",
} as const satisfies Record<string, AccessAction | null>;
export type RouteName = keyof typeof ROUTE_ACTIONS;

export function mayOpenRoute(roles: readonly Role[], route: RouteName): boolean {
  const action: AccessAction | null = ROUTE_ACTIONS[route];
  return action === null || can(roles, action);
}
