import {
  ACCESS_ACTIONS,
  type AccessAction,
  can,
  ErrorCode,
  grantableRoles,
  type Language,
  type Role,
  seesAllFacilities,
} from "@carecampus/contract";
import { AppError } from "../errors";

/** The logged-in user as every guard, policy and service sees them. */
export interface Actor {
  id: number;
  login: string;
  name: string;
  surname: string;
  roles: Role[];
  facilityId: number | null;
  language: Language;
}

/**
 * What an action is done to: a user (id, facility, roles) or a facility (facility only). A
 * certificate, a matrix or a progress page is the user it belongs to.
 */
export interface Target {
  id?: number;
  /** Unknown or none: outside every bound actor's facility. */
  facilityId?: number | null;
  roles?: readonly Role[];
}

export type Outcome = "allow" | "forbidden" | "not-found";

interface Failure {
  code: ErrorCode;
  message: string;
}

/**
 * What the server adds to the contract's role table (ACCESS_ROLES, which the web app's menus
 * and buttons read too): the facility scope, self, grant, and the error of each refusal.
 */
interface Policy {
  /** What a refused role is told: forbidden, or not-found where even the refusal would reveal the target. */
  refused: "forbidden" | "not-found";
  forbidden?: Failure;
  notFound?: Failure;
  /** allow: the actor acting on themselves passes before any other rule; refuse: never on themselves. */
  self?: "allow" | "refuse";
  /** The message of a refused `self: "refuse"`. */
  selfRefused?: string;
  /** The target must lie in the actor's facilities (the actor themselves always does); else not-found. */
  scope?: true;
  /** Only users whose every role the actor could grant (nobody manages a more powerful user). */
  grant?: true;
}

const NOT_STAFF: Failure = {
  code: ErrorCode.notAllowedToSeeEmployees,
  message: "You are not allowed to see employees",
};
const NOT_EDITOR: Failure = { code: ErrorCode.forbidden, message: "Your role may not edit users" };
const NOT_LEARNER: Failure = { code: ErrorCode.forbidden, message: "Your role may not do this" };
const USER_NOT_FOUND: Failure = { code: ErrorCode.userNotFound, message: "User not found" };
const NOT_HELP_STAFF: Failure = { code: ErrorCode.forbidden, message: "Your role may not see help requests" };
const HELP_NOT_FOUND: Failure = { code: ErrorCode.helpRequestNotFound, message: "Help request not found" };
const FACILITY_NOT_FOUND: Failure = { code: ErrorCode.facilityNotFound, message: "Facility not found" };
const NOT_WIKI_EDITOR: Failure = { code: ErrorCode.forbidden, message: "Your role may not edit wiki pages" };
const WIKI_NOT_FOUND: Failure = { code: ErrorCode.notFound, message: "Wiki page not found" };
const NOT_AUTHOR: Failure = { code: ErrorCode.forbidden, message: "Your role may not edit questionnaires" };
const QUESTIONNAIRE_NOT_FOUND: Failure = { code: ErrorCode.questionnaireNotFound, message: "Questionnaire not found" };
const NOT_PLANNER: Failure = { code: ErrorCode.forbidden, message: "The training calendar is for staff" };

/**
 * Every permission rule of spec §6 in one table (ARCHITECTURE decision 17): who is admitted
 * comes from the contract's ACCESS_ROLES (the web app shows its buttons by the same), the rest
 * is here. Invisible and missing targets look alike: what lies in another facility is answered
 * with the feature's not-found code, never 403.
 */
export const POLICIES = {
  /** Quiz and learning pages: only learners have trainings (spec §2). */
  "learning.take": { refused: "forbidden", forbidden: NOT_LEARNER },
  "help.ask": { refused: "forbidden", forbidden: NOT_LEARNER },
  /** User search and the choices of a matrix: staff (1015 for everyone else, spec §8). */
  "users.list": { refused: "forbidden", forbidden: NOT_STAFF },
  "catalogue.read": { refused: "forbidden", forbidden: NOT_STAFF },
  "users.create": { refused: "forbidden", forbidden: NOT_EDITOR },
  /** CSV import: superusers only (spec §6 "sees user import"). */
  "users.import": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Only a superuser imports users" },
  },
  /** Putting a user into a facility (create, edit): an editor, into a facility of theirs. */
  "user.place": {
    refused: "forbidden",
    forbidden: NOT_EDITOR,
    scope: true,
    notFound: FACILITY_NOT_FOUND,
  },
  /** Facility list of the user form: administrators (their own) and Super-Admins (all). */
  "facilities.list": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Your role may not list facilities" },
  },
  "facilities.create": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Only a Super-Admin creates facilities" },
  },
  /** The progress overview and its export, of a facility within scope. */
  "overview.read": {
    refused: "forbidden",
    forbidden: NOT_STAFF,
    scope: true,
    notFound: FACILITY_NOT_FOUND,
  },
  /** The overview's xlsx export: superusers and Super-Admins only (spec §6). */
  "overview.export": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Only a Super-Admin exports the overview" },
  },
  /** A facility's additional qualifications. */
  "qualifications.list": {
    refused: "forbidden",
    forbidden: NOT_STAFF,
    scope: true,
    notFound: FACILITY_NOT_FOUND,
  },
  "qualifications.create": {
    refused: "forbidden",
    forbidden: NOT_EDITOR,
    scope: true,
    notFound: FACILITY_NOT_FOUND,
  },
  /** A user's account data and progress: themselves, or staff of their facility; nobody else learns they exist. */
  "user.view": { refused: "not-found", self: "allow", scope: true, notFound: USER_NOT_FOUND },
  /** A certificate: as its owner's data, but answered with 1011. */
  "certificate.view": {
    refused: "not-found",
    self: "allow",
    scope: true,
    notFound: { code: ErrorCode.certificateNotFound, message: "Certificate not found" },
  },
  /** Account settings and preferences: only the user themselves (or a superuser). */
  "user.account": { refused: "not-found", self: "allow", notFound: USER_NOT_FOUND },
  /** A user's master data and training matrix in the administration. */
  "user.read": {
    refused: "forbidden",
    forbidden: NOT_STAFF,
    scope: true,
    notFound: USER_NOT_FOUND,
  },
  /** A user's additional qualifications: their own, or as user.read. */
  "user.qualifications.read": {
    refused: "forbidden",
    forbidden: NOT_STAFF,
    self: "allow",
    scope: true,
    notFound: USER_NOT_FOUND,
  },
  /** Editing a user, their matrix or their additional qualifications. */
  "user.edit": {
    refused: "forbidden",
    forbidden: NOT_EDITOR,
    scope: true,
    grant: true,
    notFound: USER_NOT_FOUND,
  },
  "user.delete": {
    refused: "forbidden",
    forbidden: NOT_EDITOR,
    self: "refuse",
    selfRefused: "You cannot delete yourself",
    scope: true,
    grant: true,
    notFound: USER_NOT_FOUND,
  },
  /** A passive (in-person) training marked passed: supervisors too (decision 5). */
  "training.markPassed": {
    refused: "forbidden",
    forbidden: NOT_STAFF,
    scope: true,
    notFound: USER_NOT_FOUND,
  },
  /** Help requests (decision 19): staff see and answer those of their facility's learners; Super-Admins all. */
  "help.read": {
    refused: "forbidden",
    forbidden: NOT_HELP_STAFF,
    scope: true,
    notFound: HELP_NOT_FOUND,
  },
  "help.handle": {
    refused: "forbidden",
    forbidden: NOT_HELP_STAFF,
    scope: true,
    notFound: HELP_NOT_FOUND,
  },
  /** 'Content needs fixing' and its work list: the content's owners. */
  "help.flagContent": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Only a Super-Admin marks content for fixing" },
  },
  /**
   * The training calendar (spec §6: administrator, supervisor, Super-Admin): an event, seen
   * with its invitees; another facility's event is answered like a missing one. Learners see
   * their own events through their invitation, not through this rule.
   */
  "calendar.read": {
    refused: "forbidden",
    forbidden: NOT_PLANNER,
    scope: true,
    notFound: { code: ErrorCode.notFound, message: "Event not found" },
  },
  /**
   * A facility's calendar: listing it, proposing invitees, scheduling, changing, deleting its
   * events and recording attendance. Another facility is an unknown one (1003).
   */
  "calendar.plan": {
    refused: "forbidden",
    forbidden: NOT_PLANNER,
    scope: true,
    notFound: FACILITY_NOT_FOUND,
  },
  /** The staff version of the tutorial (spec §6 'Help tutorial'). */
  "tutorial.admin": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "The staff tutorial is for staff" },
  },
  /** Wiki (decision 14): common pages are the Super-Admins' (spec §6 'wiki admin mode'). */
  "wiki.editCommon": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Only a Super-Admin edits the common wiki pages" },
  },
  /** A facility's own pages: its administrators and Super-Admins; another facility's page is unknown. */
  "wiki.editFacility": {
    refused: "forbidden",
    forbidden: NOT_WIKI_EDITOR,
    scope: true,
    notFound: WIKI_NOT_FOUND,
  },
  /** Uploading a wiki image: whoever edits pages at all, checked before the body is read. */
  "wiki.upload": { refused: "forbidden", forbidden: NOT_WIKI_EDITOR },
  /** Seeing a facility's pages (?facility=): its users and Super-Admins; another facility is unknown (1003). */
  "wiki.readFacility": { refused: "not-found", scope: true, notFound: FACILITY_NOT_FOUND },
  /** A facility's page, by id: only within that facility (common pages are everyone's, no target). */
  "wiki.page": { refused: "not-found", scope: true, notFound: WIKI_NOT_FOUND },
  /** Who in a facility confirmed a page: its staff (the overview's readers). */
  "wiki.confirmations": {
    refused: "forbidden",
    forbidden: NOT_STAFF,
    scope: true,
    notFound: FACILITY_NOT_FOUND,
  },
  /**
   * A facility's question image or video and a facility's wiki image exist only within that
   * facility; common media are everyone's (no target). 1009 like a missing file.
   */
  "media.view": {
    refused: "not-found",
    scope: true,
    notFound: { code: ErrorCode.imageNotFound, message: "Image not found" },
  },
  /**
   * A user's partner courses (external courses, not the additional qualifications): staff see
   * those of their facility's users (GET /external-course/course?userId=, the staff view);
   * a user elsewhere is unknown. Learners see their own through learning.take.
   */
  "partnerCourses.read": {
    refused: "forbidden",
    forbidden: NOT_STAFF,
    scope: true,
    notFound: USER_NOT_FOUND,
  },
  /**
   * Authoring (issue 16): staff see the questionnaires of their scope in the editor, supervisors
   * read only; another facility's questionnaire does not exist (1006).
   */
  "authoring.read": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Authoring is for staff" },
    scope: true,
    notFound: QUESTIONNAIRE_NOT_FOUND,
  },
  /** A facility's own questionnaires (spec §6 'creates own questionnaires'): its administrators and Super-Admins. */
  "authoring.editFacility": {
    refused: "forbidden",
    forbidden: NOT_AUTHOR,
    scope: true,
    notFound: QUESTIONNAIRE_NOT_FOUND,
  },
  /** Common content (topics, trainings, common and package questionnaires): Super-Admins. */
  "authoring.editCommon": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Only a Super-Admin edits common content" },
  },
  /** A question's image or video: whoever edits questionnaires at all, checked before the body is read. */
  "authoring.upload": { refused: "forbidden", forbidden: NOT_AUTHOR },
  /** Former employees of the caller's facilities (issue 28): whoever edits users. */
  "users.former": { refused: "forbidden", forbidden: NOT_EDITOR },
  /** Bringing back a person archived by mistake: as deleting them. */
  "user.restore": { refused: "forbidden", forbidden: NOT_EDITOR, scope: true, grant: true, notFound: USER_NOT_FOUND },
  /** A person's data export (GDPR Art. 15, 20) produced by staff; everyone has their own at /account. */
  "user.export": { refused: "forbidden", forbidden: NOT_EDITOR, self: "allow", scope: true, notFound: USER_NOT_FOUND },
  /** An erasure request made for a person (GDPR Art. 17). */
  "user.erasure": { refused: "forbidden", forbidden: NOT_EDITOR, scope: true, grant: true, notFound: USER_NOT_FOUND },
  /** The audit trail: superusers everything, administrators their facility (another facility is unknown). */
  "audit.read": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Only superusers and administrators see the audit trail" },
    scope: true,
    notFound: FACILITY_NOT_FOUND,
  },
  /** Whether the audit chain is intact. */
  "audit.verify": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Only a superuser verifies the audit trail" },
  },
  /** Revoking a certificate: as editing its holder; another facility's certificate is unknown (1011). */
  "certificate.revoke": {
    refused: "forbidden",
    forbidden: { code: ErrorCode.forbidden, message: "Your role may not revoke certificates" },
    scope: true,
    grant: true,
    notFound: { code: ErrorCode.certificateNotFound, message: "Certificate not found" },
  },
  /** A facility's evidence at a date: its staff (the overview's readers); another facility is unknown. */
  "evidence.read": {
    refused: "forbidden",
    forbidden: NOT_STAFF,
    scope: true,
    notFound: FACILITY_NOT_FOUND,
  },
  /** The staff start page: its parts are each read within the actor's facilities. */
  "home.staff": { refused: "forbidden", forbidden: NOT_STAFF },
} as const satisfies Record<AccessAction, Policy>;

/** The contract's actions: the table above must describe each, and no other. */
export type Action = AccessAction;
export const ACTIONS: readonly Action[] = ACCESS_ACTIONS;

/** The facilities an actor works in: all (superchris, contentmanager), their own, or none. */
export function facilityScope(actor: Pick<Actor, "roles" | "facilityId">): "all" | number | null {
  return seesAllFacilities(actor.roles) ? "all" : actor.facilityId;
}

/** Does the facility lie within the actor's scope? No facility lies in a bound actor's scope but their own. */
export function inFacilityScope(actor: Pick<Actor, "roles" | "facilityId">, facilityId: number | null): boolean {
  const scope = facilityScope(actor);
  return scope === "all" || (facilityId !== null && scope === facilityId);
}

/**
 * What an owned thing (a questionnaire, a wiki page, a media file) is, as a target: a facility's
 * own is scoped to it; common content (facilityId null) belongs to everyone and has no facility
 * to be outside of.
 */
export function ownedBy(facilityId: number | null): Target | undefined {
  return facilityId === null ? undefined : { facilityId };
}

/** Content written by a facility or for everyone: the rule that edits each (issue 16, decision 14). */
const EDIT_RULES = {
  questionnaire: { common: "authoring.editCommon", facility: "authoring.editFacility" },
  wikiPage: { common: "wiki.editCommon", facility: "wiki.editFacility" },
} as const satisfies Record<string, { common: Action; facility: Action }>;
export type EditedContent = keyof typeof EDIT_RULES;

function editRule(kind: EditedContent, facilityId: number | null): Action {
  return facilityId === null ? EDIT_RULES[kind].common : EDIT_RULES[kind].facility;
}

/** May the actor change this content, a facility's own or common (facilityId null)? */
export function mayEditContent(
  actor: Pick<Actor, "id" | "roles" | "facilityId">,
  kind: EditedContent,
  facilityId: number | null,
): boolean {
  return decide(actor, editRule(kind, facilityId), ownedBy(facilityId)) === "allow";
}

/** Throws the refusal of an edit: common content 403 for non-editors; a facility's 403 by role, 404 outside scope. */
export function assertMayEditContent(actor: Actor, kind: EditedContent, facilityId: number | null): void {
  assertMay(actor, editRule(kind, facilityId), ownedBy(facilityId));
}

/** May the actor change a questionnaire (authoring): a facility's own, or common content (facilityId null)? */
export function mayEditQuestionnaire(
  actor: Pick<Actor, "id" | "roles" | "facilityId">,
  facilityId: number | null,
): boolean {
  return mayEditContent(actor, "questionnaire", facilityId);
}

/** Roles in `roles` the actor could not grant (spec §6). */
export function ungrantable(actor: Pick<Actor, "roles">, roles: readonly Role[]): Role[] {
  const allowed = grantableRoles(actor.roles);
  return roles.filter((r) => !allowed.includes(r));
}

/**
 * The decision for one action. Without a target only the role is checked: the admission of a
 * route or a service before it loads what the action is done to.
 */
export function decide(actor: Pick<Actor, "id" | "roles" | "facilityId">, action: Action, target?: Target): Outcome {
  const policy: Policy = POLICIES[action];
  const self = target?.id !== undefined && target.id === actor.id;
  if (self && policy.self === "allow") return "allow";
  if (!can(actor.roles, action)) return policy.refused;
  if (policy.scope && target && !self && !inFacilityScope(actor, target.facilityId ?? null)) return "not-found";
  if (self && policy.self === "refuse") return "forbidden";
  if (policy.grant && target?.roles && ungrantable(actor, target.roles).length > 0) return "forbidden";
  return "allow";
}

/** The error a missing (or invisible) target of `action` is answered with. */
export function notFound(action: Action): AppError {
  const failure = (POLICIES[action] as Policy).notFound ?? { code: ErrorCode.notFound, message: "Not found" };
  return new AppError(failure.code, failure.message);
}

function forbidden(actor: Actor, action: Action, target: Target | undefined): AppError {
  const policy: Policy = POLICIES[action];
  if (can(actor.roles, action)) {
    if (target?.id === actor.id && policy.self === "refuse") {
      return new AppError(ErrorCode.forbidden, policy.selfRefused ?? "Not on yourself");
    }
    if (policy.grant && target?.roles) {
      // Acting on a user who holds a role the actor could not give (edit, delete, restore, erase).
      const refused = ungrantable(actor, target.roles).join(", ");
      return new AppError(ErrorCode.forbidden, `You may not change a user with the role(s): ${refused}`);
    }
  }
  const failure = policy.forbidden ?? { code: ErrorCode.forbidden, message: "Forbidden" };
  return new AppError(failure.code, failure.message);
}

/** Throws the action's spec §8 error unless `decide` allows it. */
export function assertMay(actor: Actor, action: Action, target?: Target): void {
  const outcome = decide(actor, action, target);
  if (outcome === "not-found") throw notFound(action);
  if (outcome === "forbidden") throw forbidden(actor, action, target);
}

/**
 * Giving roles (create, edit): only roles the actor could grant, and nobody gives themselves a
 * role they do not hold yet.
 */
export function assertMayGrant(
  actor: Actor,
  roles: readonly Role[],
  target?: { id: number; roles: readonly Role[] },
): void {
  const refused = ungrantable(actor, roles);
  if (refused.length > 0) {
    throw new AppError(ErrorCode.forbidden, `You may not grant the role(s): ${refused.join(", ")}`);
  }
  if (target && target.id === actor.id && !roles.every((r) => target.roles.includes(r))) {
    throw new AppError(ErrorCode.forbidden, "You cannot give yourself new roles");
  }
}
