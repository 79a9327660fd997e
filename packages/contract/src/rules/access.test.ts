import { describe, expect, it } from "vitest";
import { hasTrainings, ROLES, seesColleagueProgress } from "../roles";
import type { Role } from "../schemas/role";
import { ACCESS_ACTIONS, can, mayOpenRoute, ROUTE_ACTIONS, type RouteName } from "./access";

/** The routes of spec §2 and who opens them (spec §6), written out: ✓ opens, · does not. */
// biome-ignore format: the table is read by its columns
const ROUTES: Record<RouteName, string> = {
  //               sc cm ad su em
  home:           "✓  ✓  ✓  ✓  ✓",
  topic:          "✓  ·  ·  ·  ✓",
  myQuestions:    "✓  ·  ·  ·  ✓",
  profile:        "✓  ✓  ✓  ✓  ✓",
  account:        "✓  ✓  ✓  ✓  ✓",
  editUser:       "✓  ✓  ✓  ·  ·",
  progress:       "✓  ✓  ✓  ✓  ·",
  calendar:       "✓  ✓  ✓  ✓  ·",
  users:          "✓  ✓  ✓  ✓  ·",
  helpRequests:   "✓  ✓  ✓  ✓  ·",
  partnerCourses: "✓  ✓  ✓  ✓  ·",
  authoring:      "✓  ✓  ✓  ✓  ·",
  help:           "✓  ✓  ✓  ✓  ✓",
  wiki:           "✓  ✓  ✓  ✓  ✓",
  audit:          "✓  ·  ✓  ·  ·",
  evidence:       "✓  ✓  ✓  ✓  ·",
};

describe("access by role (the table the server and the web app share)", () => {
  const rows = (Object.keys(ROUTES) as RouteName[]).flatMap((route) =>
    ROLES.map((role, i) => [role, route, ROUTES[route].split(/\s+/)[i] === "✓"] as const),
  );
  it.each(rows)("%s opens %s → %s", (role, route, opens) => {
    expect(mayOpenRoute([role], route)).toBe(opens);
  });

  it("names every route and opens each by an action of the table", () => {
    expect(Object.keys(ROUTES).sort()).toEqual(Object.keys(ROUTE_ACTIONS).sort());
    for (const action of Object.values(ROUTE_ACTIONS)) {
      if (action !== null) expect(ACCESS_ACTIONS).toContain(action);
    }
  });

  it("lets superchris do everything (spec §6) and nobody without a role anything role-bound", () => {
    for (const action of ACCESS_ACTIONS) expect(can(["superchris"], action), action).toBe(true);
    expect(can([], "wiki.page")).toBe(true);
    expect(can([], "users.list")).toBe(false);
  });

  it("admits a user of several roles when any of them is admitted", () => {
    const both: Role[] = ["supervisor", "employee"];
    expect(can(both, "learning.take")).toBe(true);
    expect(can(both, "overview.read")).toBe(true);
    expect(can(both, "user.edit")).toBe(false);
  });
});

describe("who has trainings (spec §2: the topic grid, the progress ring, a colleague's progress bars)", () => {
  it("is the employee role alone, not a role check superchris passes", () => {
    expect(hasTrainings(["employee"])).toBe(true);
    expect(hasTrainings(["supervisor", "employee"])).toBe(true);
    for (const roles of [["superchris"], ["contentmanager"], ["administrator"], ["supervisor"]] as Role[][]) {
      expect(hasTrainings(roles), roles.join()).toBe(false);
    }
  });

  it("colleagues' progress cards show to viewers who do not learn themselves", () => {
    expect(seesColleagueProgress(["administrator"])).toBe(true);
    expect(seesColleagueProgress(["superchris"])).toBe(true);
    expect(seesColleagueProgress(["administrator", "employee"])).toBe(false);
  });
});
