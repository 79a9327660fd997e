import { ACCESS_ROLES, can, ErrorCode, ROLES, type Role } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { issueCertificate } from "../certificates/service";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { topics, trainings } from "../db/schema";
import { AppError } from "../errors";
import {
  ACTIONS,
  type Action,
  type Actor,
  assertMay,
  assertMayEditContent,
  assertMayGrant,
  decide,
  type EditedContent,
  mayEditContent,
  type Outcome,
  ownedBy,
  POLICIES,
} from "./policy";

const A: Outcome = "allow";
const F: Outcome = "forbidden";
const N: Outcome = "not-found";

/** Facility 1 is the bound actors' own, facility 2 another; superchris and contentmanager have none. */
const OWN = 1;
const OTHER = 2;

const actor = (role: Role, id: number): Actor => ({
  id,
  login: role,
  name: "Test",
  surname: role,
  roles: [role],
  facilityId: role === "superchris" || role === "contentmanager" ? null : OWN,
  language: "de",
});
const ACTORS = Object.fromEntries(ROLES.map((role, i) => [role, actor(role, i + 1)])) as Record<Role, Actor>;

/** An employee of the actor's facility and one of another: the target of every row below. */
const TARGETS = {
  own: { id: 100, facilityId: OWN, roles: ["employee"] as Role[] },
  other: { id: 101, facilityId: OTHER, roles: ["employee"] as Role[] },
};

/**
 * Every action for every role, on a target in the actor's own facility and in another one.
 * Actions without a facility scope must ignore the target's facility (both columns alike).
 */
// biome-ignore format: the table is read by its columns
const TABLE: [Action, ...Outcome[]][] = [
  //                           superchris  contentmgr  administr.  supervisor  employee
  //                           own other   own other   own other   own other   own other
  ["learning.take",             A, A,       F, F,       F, F,       F, F,       A, A],
  ["help.ask",                  A, A,       F, F,       F, F,       F, F,       A, A],
  ["users.list",                A, A,       A, A,       A, A,       A, A,       F, F],
  ["catalogue.read",            A, A,       A, A,       A, A,       A, A,       F, F],
  ["users.create",              A, A,       A, A,       A, A,       F, F,       F, F],
  ["users.import",              A, A,       F, F,       F, F,       F, F,       F, F],
  ["user.place",                A, A,       A, A,       A, N,       F, F,       F, F],
  ["facilities.list",           A, A,       A, A,       A, A,       F, F,       F, F],
  ["facilities.create",         A, A,       A, A,       F, F,       F, F,       F, F],
  ["overview.read",             A, A,       A, A,       A, N,       A, N,       F, F],
  ["overview.export",           A, A,       A, A,       F, F,       F, F,       F, F],
  ["qualifications.list",       A, A,       A, A,       A, N,       A, N,       F, F],
  ["qualifications.create",     A, A,       A, A,       A, N,       F, F,       F, F],
  ["user.view",                 A, A,       A, A,       A, N,       A, N,       N, N],
  ["certificate.view",          A, A,       A, A,       A, N,       A, N,       N, N],
  ["user.account",              A, A,       N, N,       N, N,       N, N,       N, N],
  ["user.read",                 A, A,       A, A,       A, N,       A, N,       F, F],
  ["user.qualifications.read",  A, A,       A, A,       A, N,       A, N,       F, F],
  ["user.edit",                 A, A,       A, A,       A, N,       F, F,       F, F],
  ["user.delete",               A, A,       A, A,       A, N,       F, F,       F, F],
  ["training.markPassed",       A, A,       A, A,       A, N,       A, N,       F, F],
  ["help.read",                 A, A,       A, A,       A, N,       A, N,       F, F],
  ["help.handle",               A, A,       A, A,       A, N,       A, N,       F, F],
  ["help.flagContent",          A, A,       A, A,       F, F,       F, F,       F, F],
  ["calendar.read",             A, A,       A, A,       A, N,       A, N,       F, F],
  ["calendar.plan",             A, A,       A, A,       A, N,       A, N,       F, F],
  ["tutorial.admin",            A, A,       A, A,       A, A,       A, A,       F, F],
  ["wiki.editCommon",           A, A,       A, A,       F, F,       F, F,       F, F],
  ["wiki.editFacility",         A, A,       A, A,       A, N,       F, F,       F, F],
  ["wiki.upload",               A, A,       A, A,       A, A,       F, F,       F, F],
  ["wiki.readFacility",         A, A,       A, A,       A, N,       A, N,       A, N],
  ["wiki.page",                 A, A,       A, A,       A, N,       A, N,       A, N],
  ["wiki.confirmations",        A, A,       A, A,       A, N,       A, N,       F, F],
  ["media.view",                A, A,       A, A,       A, N,       A, N,       A, N],
  ["partnerCourses.read",       A, A,       A, A,       A, N,       A, N,       F, F],
  ["authoring.read",            A, A,       A, A,       A, N,       A, N,       F, F],
  ["authoring.editFacility",    A, A,       A, A,       A, N,       F, F,       F, F],
  ["authoring.editCommon",      A, A,       A, A,       F, F,       F, F,       F, F],
  ["authoring.upload",          A, A,       A, A,       A, A,       F, F,       F, F],
  ["users.former",              A, A,       A, A,       A, A,       F, F,       F, F],
  ["user.restore",              A, A,       A, A,       A, N,       F, F,       F, F],
  ["user.export",               A, A,       A, A,       A, N,       F, F,       F, F],
  ["user.erasure",              A, A,       A, A,       A, N,       F, F,       F, F],
  ["audit.read",                A, A,       F, F,       A, N,       F, F,       F, F],
  ["audit.verify",              A, A,       F, F,       F, F,       F, F,       F, F],
  ["certificate.revoke",        A, A,       A, A,       A, N,       F, F,       F, F],
  ["evidence.read",             A, A,       A, A,       A, N,       A, N,       F, F],
  // No target: each part of the start page is read within the actor's facilities.
  ["home.staff",                A, A,       A, A,       A, A,       A, A,       F, F],
];

/** The same actions done by each role to themselves. */
// biome-ignore format: the table is read by its columns
const SELF: [Action, ...Outcome[]][] = [
  //                           superchris contentmgr administr. supervisor employee
  ["user.view",                 A,         A,         A,         A,         A],
  ["certificate.view",          A,         A,         A,         A,         A],
  ["user.account",              A,         A,         A,         A,         A],
  ["user.qualifications.read",  A,         A,         A,         A,         A],
  ["user.read",                 A,         A,         A,         A,         F],
  ["user.edit",                 A,         A,         A,         F,         F],
  ["user.delete",               F,         F,         F,         F,         F],
  ["training.markPassed",       A,         A,         A,         A,         F],
  ["user.export",               A,         A,         A,         A,         A],
];

/** user.edit on a user of each role (bound roles in the actor's facility): nobody manages the more powerful. */
// biome-ignore format: the table is read by its columns
const BY_TARGET_ROLE: [Role, ...Outcome[]][] = [
  //  actor          target: superchris contentmgr administr. supervisor employee
  ["superchris",             A,         A,         A,         A,         A],
  ["contentmanager",         F,         A,         A,         A,         A],
  // Super-Admins and superusers have no facility: outside an administrator's scope.
  ["administrator",          N,         N,         A,         A,         A],
  ["supervisor",             F,         F,         F,         F,         F],
  ["employee",               F,         F,         F,         F,         F],
];

/**
 * Content a facility owns or everyone shares (wiki pages, questionnaires, media): the same
 * rule on common content (no facility), the actor's facility's and another's.
 */
// biome-ignore format: the table is read by its columns
const OWNED: [Action | `edit ${EditedContent}`, ...Outcome[]][] = [
  //                           superchris      contentmgr      administr.      supervisor      employee
  //                           com own other   com own other   com own other   com own other   com own other
  ["edit wikiPage",             A, A, A,        A, A, A,        F, A, N,        F, F, F,        F, F, F],
  ["edit questionnaire",        A, A, A,        A, A, A,        F, A, N,        F, F, F,        F, F, F],
  ["authoring.read",            A, A, A,        A, A, A,        A, A, N,        A, A, N,        F, F, F],
  ["wiki.page",                 A, A, A,        A, A, A,        A, A, N,        A, A, N,        A, A, N],
  ["media.view",                A, A, A,        A, A, A,        A, A, N,        A, A, N,        A, A, N],
];

/**
 * The contract's role table (packages/contract rules/access.ts), written out: what the web app
 * shows and what the server admits before it looks at a target. ✓ admitted, · refused.
 */
// biome-ignore format: the table is read by its columns
const ROLE_TABLE: Record<Action, string> = {
  //                            sc cm ad su em
  "learning.take":              "✓  ·  ·  ·  ✓",
  "help.ask":                   "✓  ·  ·  ·  ✓",
  "users.list":                 "✓  ✓  ✓  ✓  ·",
  "catalogue.read":             "✓  ✓  ✓  ✓  ·",
  "users.create":               "✓  ✓  ✓  ·  ·",
  "users.import":               "✓  ·  ·  ·  ·",
  "user.place":                 "✓  ✓  ✓  ·  ·",
  "facilities.list":            "✓  ✓  ✓  ·  ·",
  "facilities.create":          "✓  ✓  ·  ·  ·",
  "overview.read":              "✓  ✓  ✓  ✓  ·",
  "overview.export":            "✓  ✓  ·  ·  ·",
  "qualifications.list":        "✓  ✓  ✓  ✓  ·",
  "qualifications.create":      "✓  ✓  ✓  ·  ·",
  "user.view":                  "✓  ✓  ✓  ✓  ·",
  "certificate.view":           "✓  ✓  ✓  ✓  ·",
  "user.account":               "✓  ·  ·  ·  ·",
  "user.read":                  "✓  ✓  ✓  ✓  ·",
  "user.qualifications.read":   "✓  ✓  ✓  ✓  ·",
  "user.edit":                  "✓  ✓  ✓  ·  ·",
  "user.delete":                "✓  ✓  ✓  ·  ·",
  "training.markPassed":        "✓  ✓  ✓  ✓  ·",
  "help.read":                  "✓  ✓  ✓  ✓  ·",
  "help.handle":                "✓  ✓  ✓  ✓  ·",
  "help.flagContent":           "✓  ✓  ·  ·  ·",
  "calendar.read":              "✓  ✓  ✓  ✓  ·",
  "calendar.plan":              "✓  ✓  ✓  ✓  ·",
  "tutorial.admin":             "✓  ✓  ✓  ✓  ·",
  "wiki.editCommon":            "✓  ✓  ·  ·  ·",
  "wiki.editFacility":          "✓  ✓  ✓  ·  ·",
  "wiki.upload":                "✓  ✓  ✓  ·  ·",
  "wiki.readFacility":          "✓  ✓  ✓  ✓  ✓",
  "wiki.page":                  "✓  ✓  ✓  ✓  ✓",
  "wiki.confirmations":         "✓  ✓  ✓  ✓  ·",
  "media.view":                 "✓  ✓  ✓  ✓  ✓",
  "partnerCourses.read":        "✓  ✓  ✓  ✓  ·",
  "authoring.read":             "✓  ✓  ✓  ✓  ·",
  "authoring.editFacility":     "✓  ✓  ✓  ·  ·",
  "authoring.editCommon":       "✓  ✓  ·  ·  ·",
  "authoring.upload":           "✓  ✓  ✓  ·  ·",
  "users.former":               "✓  ✓  ✓  ·  ·",
  "user.restore":               "✓  ✓  ✓  ·  ·",
  "user.export":                "✓  ✓  ✓  ·  ·",
  "user.erasure":               "✓  ✓  ✓  ·  ·",
  "audit.read":                 "✓  ·  ✓  ·  ·",
  "audit.verify":               "✓  ·  ·  ·  ·",
  "certificate.revoke":         "✓  ✓  ✓  ·  ·",
  "evidence.read":              "✓  ✓  ✓  ✓  ·",
  "home.staff":                 "✓  ✓  ✓  ✓  ·",
};

describe("access policies (pure)", () => {
  it("the tables name every action", () => {
    expect(TABLE.map((r) => r[0]).sort()).toEqual([...ACTIONS].sort());
    expect(Object.keys(ROLE_TABLE).sort()).toEqual([...ACTIONS].sort());
    expect(Object.keys(POLICIES).sort()).toEqual(Object.keys(ACCESS_ROLES).sort());
  });

  const admissions = ACTIONS.flatMap((action) =>
    ROLES.map((role, i) => [role, action, ROLE_TABLE[action].split(/\s+/)[i] === "✓"] as const),
  );
  it.each(admissions)("%s, %s: the contract admits → %s, and the server admits the same", (role, action, admitted) => {
    expect(can([role], action)).toBe(admitted);
    // Without a target the server decides by the role alone: the contract's table, nothing else.
    expect(decide(ACTORS[role], action)).toBe(admitted ? A : POLICIES[action].refused);
  });

  const ownedRows = OWNED.flatMap(([rule, ...outcomes]) =>
    ROLES.flatMap((role, i) =>
      ([null, OWN, OTHER] as const).map((facilityId, j) => [role, rule, facilityId, outcomes[3 * i + j]] as const),
    ),
  );
  it.each(ownedRows)("%s, %s on content of facility %s → %s", (role, rule, facilityId, expected) => {
    const me = ACTORS[role];
    if (rule.startsWith("edit ")) {
      const kind = rule.slice("edit ".length) as EditedContent;
      expect(mayEditContent(me, kind, facilityId)).toBe(expected === A);
      const run = () => assertMayEditContent(me, kind, facilityId);
      if (expected === A) expect(run).not.toThrow();
      else expect(run).toThrow(expect.objectContaining({ status: expected === N ? 404 : 403 }));
    } else {
      expect(decide(me, rule as Action, ownedBy(facilityId))).toBe(expected);
    }
  });

  const rows = TABLE.flatMap(([action, ...outcomes]) =>
    ROLES.flatMap((role, i) => [
      [role, "own", action, outcomes[2 * i]] as const,
      [role, "other", action, outcomes[2 * i + 1]] as const,
    ]),
  );
  it.each(rows)("%s on a target in the %s facility: %s → %s", (role, where, action, expected) => {
    expect(decide(ACTORS[role], action, TARGETS[where])).toBe(expected);
  });

  const selfRows = SELF.flatMap(([action, ...outcomes]) =>
    ROLES.map((role, i) => [role, action, outcomes[i]] as const),
  );
  it.each(selfRows)("%s on themselves: %s → %s", (role, action, expected) => {
    const me = ACTORS[role];
    expect(decide(me, action, { id: me.id, facilityId: me.facilityId, roles: me.roles })).toBe(expected);
  });

  const roleRows = BY_TARGET_ROLE.flatMap(([role, ...outcomes]) =>
    ROLES.map((targetRole, i) => [role, targetRole, outcomes[i]] as const),
  );
  it.each(roleRows)("%s edits a %s → %s", (role, targetRole, expected) => {
    const facilityId = targetRole === "superchris" || targetRole === "contentmanager" ? null : OWN;
    expect(decide(ACTORS[role], "user.edit", { id: 200, facilityId, roles: [targetRole] })).toBe(expected);
  });

  it("a bound actor without a facility sees no facility at all", () => {
    const lost: Actor = { ...ACTORS.administrator, facilityId: null };
    expect(decide(lost, "user.read", { id: 100, facilityId: null })).toBe(N);
    expect(decide(lost, "overview.read", { facilityId: OWN })).toBe(N);
  });

  it.each([
    ["employee", "users.list", TARGETS.own, ErrorCode.notAllowedToSeeEmployees, 403],
    ["supervisor", "user.edit", TARGETS.own, ErrorCode.forbidden, 403],
    ["administrator", "users.import", undefined, ErrorCode.forbidden, 403],
    ["administrator", "user.view", TARGETS.other, ErrorCode.userNotFound, 404],
    ["employee", "user.view", TARGETS.own, ErrorCode.userNotFound, 404],
    ["administrator", "certificate.view", TARGETS.other, ErrorCode.certificateNotFound, 404],
    ["supervisor", "overview.read", { facilityId: OTHER }, ErrorCode.facilityNotFound, 404],
    ["administrator", "qualifications.create", { facilityId: OTHER }, ErrorCode.facilityNotFound, 404],
    ["contentmanager", "user.edit", { id: 200, facilityId: null, roles: ["superchris"] }, ErrorCode.forbidden, 403],
    ["employee", "media.view", { facilityId: OTHER }, ErrorCode.imageNotFound, 404],
    ["supervisor", "wiki.page", { facilityId: OTHER }, ErrorCode.notFound, 404],
    ["supervisor", "wiki.confirmations", { facilityId: OTHER }, ErrorCode.facilityNotFound, 404],
    ["employee", "wiki.confirmations", { facilityId: OWN }, ErrorCode.notAllowedToSeeEmployees, 403],
    ["administrator", "authoring.read", { facilityId: OTHER }, ErrorCode.questionnaireNotFound, 404],
  ] as const)("assertMay: %s, %s on %j → code %s, status %s", (role, action, target, code, status) => {
    const run = () => assertMay(ACTORS[role], action, target);
    expect(run).toThrow(AppError);
    try {
      run();
    } catch (err) {
      expect(err).toMatchObject({ code, status });
    }
  });

  it("says why a user who holds a role the actor cannot give is out of reach (not 'grant' for a delete)", () => {
    const superchris = { id: 200, facilityId: null, roles: ["superchris"] as Role[] };
    for (const action of ["user.edit", "user.delete"] as const) {
      expect(() => assertMay(ACTORS.contentmanager, action, superchris)).toThrow(
        "You may not change a user with the role(s): superchris",
      );
    }
  });

  it("assertMayGrant: only grantable roles, and no new roles for oneself", () => {
    expect(() => assertMayGrant(ACTORS.administrator, ["supervisor", "employee"])).not.toThrow();
    expect(() => assertMayGrant(ACTORS.administrator, ["contentmanager"])).toThrow(/contentmanager/);
    expect(() => assertMayGrant(ACTORS.contentmanager, ["superchris"])).toThrow(/superchris/);
    const me = ACTORS.administrator;
    expect(() => assertMayGrant(me, ["administrator", "supervisor"], { id: me.id, roles: ["administrator"] })).toThrow(
      /yourself/,
    );
    expect(() =>
      assertMayGrant(me, ["administrator"], { id: me.id, roles: ["administrator", "supervisor"] }),
    ).not.toThrow();
  });
});

describe("routes ask the access module (API)", () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let topicId = 0;
  let certB = 0;

  beforeAll(async () => {
    ctx = await createTestApp();
    cast = await createCast(ctx);
    const { db } = ctx.deps.database;
    await importPackage(db, loadPackage(writeFixture()));
    const [topic] = await db.select({ id: topics.id }).from(topics);
    topicId = topic?.id ?? 0;
    const [training] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
    certB = await db.transaction((tx) =>
      issueCertificate(
        tx,
        cast.users.employeeB.id,
        { id: training?.id ?? 0, validityMonths: 12, points: 10, newest: null },
        new Date(),
        "Europe/Berlin",
      ),
    );
  });
  afterAll(() => ctx.close());

  type Who = keyof Awaited<ReturnType<typeof createCast>>["tokens"];
  type Row = [Who, "GET" | "POST" | "PATCH" | "DELETE", string, number, ErrorCode | null, object?];
  const IMPORT_ROW = {
    surname: "Neu",
    name: "Import",
    login: "import.neu",
    facility: "Haus X",
    activities: [],
    qualifications: [],
    password: "Sicher-123!",
  };

  /** {employeeB} → that user's id; {cert}, {topic}, {facilityB} → the scene's certificate, topic, facility name. */
  const resolve = (url: string) =>
    url.replace(/\{(\w+)\}/g, (_, key: string) => {
      if (key === "cert") return String(certB);
      if (key === "topic") return String(topicId);
      if (key === "facilityB") return encodeURIComponent(cast.facilityB.name);
      return String(cast.users[key as Who].id);
    });

  // biome-ignore format: one call a line
  const API: Row[] = [
    // user.view: the user themselves, staff in scope; others and strangers get 1002.
    ["employee", "GET", "/api/auth/users/{employee}", 200, null],
    ["employee", "GET", "/api/auth/users/{supervisor}", 404, ErrorCode.userNotFound],
    ["administrator", "GET", "/api/auth/users/{employeeB}", 404, ErrorCode.userNotFound],
    ["administratorB", "GET", "/api/progress/admin/users/{employeeB}", 200, null],
    ["supervisor", "GET", "/api/progress/admin/users/{employeeB}", 404, ErrorCode.userNotFound],
    // certificate.view: as its owner's data, with 1011.
    ["administrator", "GET", "/api/progress/export/certificate?id={cert}", 404, ErrorCode.certificateNotFound],
    ["administratorB", "GET", "/api/progress/export/certificate?id={cert}", 200, null],
    // user.account: only oneself (or a superuser).
    ["contentmanager", "GET", "/api/preferences/{employee}", 404, ErrorCode.userNotFound],
    ["superchris", "GET", "/api/preferences/{employee}", 200, null],
    ["employee", "PATCH", "/api/auth/users/{employeeB}", 404, ErrorCode.userNotFound, { property: "email", value: { value: "x@example.org" } }],
    // users.list / user.read: 1015 for employees, 1002 outside the facility.
    ["employee", "GET", "/api/auth/admin/users", 403, ErrorCode.notAllowedToSeeEmployees],
    ["employee", "GET", "/api/filter/admin/trainingsmatrix/{employee}", 403, ErrorCode.notAllowedToSeeEmployees],
    ["supervisor", "GET", "/api/filter/admin/trainingsmatrix/{employeeB}", 404, ErrorCode.userNotFound],
    ["employee", "GET", "/api/external/user/{employee}", 200, null],
    ["administrator", "GET", "/api/external/user/{employeeB}", 404, ErrorCode.userNotFound],
    // user.edit / user.delete: editors within scope, never a more powerful user, never oneself.
    ["administrator", "PATCH", "/api/auth/admin/users/{employeeB}", 404, ErrorCode.userNotFound, { name: "X" }],
    ["supervisor", "PATCH", "/api/auth/admin/users/{employee}", 403, ErrorCode.forbidden, { name: "X" }],
    ["contentmanager", "PATCH", "/api/auth/admin/users/{superchris}", 403, ErrorCode.forbidden, { name: "X" }],
    ["administratorB", "PATCH", "/api/auth/admin/users/{employeeB}", 200, null, { name: "Y" }],
    ["administrator", "DELETE", "/api/auth/admin/users/{administrator}", 403, ErrorCode.forbidden],
    // overview.read and training.markPassed: another facility is an unknown one.
    ["administrator", "GET", "/api/progress/admin/topics/{topic}?facilityName={facilityB}", 404, ErrorCode.facilityNotFound],
    ["contentmanager", "GET", "/api/progress/admin/topics/{topic}?facilityName={facilityB}", 200, null],
    ["supervisor", "POST", "/api/progress/admin/users/{employeeB}/passivetraining", 404, ErrorCode.userNotFound, { topicID: 1, trainingID: 1 }],
    // Route admission: learning.take, facilities.create, users.import.
    ["administrator", "GET", "/api/progress/topics", 403, ErrorCode.forbidden],
    ["employee", "GET", "/api/progress/topics", 200, null],
    ["administrator", "POST", "/api/auth/admin/facilities", 403, ErrorCode.forbidden, { name: "Haus Neu" }],
    ["administrator", "POST", "/api/auth/admin/users?dryRun=true", 403, ErrorCode.forbidden, [IMPORT_ROW]],
    ["employee", "POST", "/api/auth/admin/users?dryRun=true", 403, ErrorCode.notAllowedToSeeEmployees, [IMPORT_ROW]],
    // calendar.read / calendar.plan: staff only; another facility's calendar is an unknown facility.
    ["employee", "GET", "/api/calendar/events?start=2027-03-01&end=2027-04-01", 403, ErrorCode.forbidden],
    ["employee", "GET", "/api/calendar/mine", 200, null],
    ["supervisor", "GET", "/api/calendar/events?start=2027-03-01&end=2027-04-01", 200, null],
    ["contentmanager", "GET", "/api/calendar/events?start=2027-03-01&end=2027-04-01", 200, null],
  ];

  it.each(API)("%s %s %s → %s", async (who, method, url, status, code, payload) => {
    const res = await ctx.app.inject({
      method,
      url: resolve(url),
      headers: bearer(cast.tokens[who]),
      ...(payload === undefined ? {} : { payload }),
    });
    expect(res.statusCode, res.body).toBe(status);
    if (code !== null) expect(res.json()).toMatchObject({ error_code: code, status_code: status });
  });
});
