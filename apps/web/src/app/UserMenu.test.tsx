// @vitest-environment jsdom
import { can, ROLES, ROUTE_ACTIONS, type Role, type RouteName } from "@carecampus/contract";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import i18n from "../i18n";
import { sessionStore } from "../session/store";
import { renderScreen, setUpComponentTests, signInAs } from "../test/render";
import { settings } from "./settings";
import { UserMenu } from "./UserMenu";

/** The menu's page entries and the route each opens (spec §2: 'the other pages the user may access'). */
const PAGES: [RouteName, string][] = [
  ["myQuestions", "nav.myQuestions"],
  ["progress", "nav.progress"],
  ["users", "nav.users"],
  ["calendar", "nav.calendar"],
  ["helpRequests", "nav.helpRequests"],
  ["partnerCourses", "nav.partnerCourses"],
  ["authoring", "nav.authoring"],
  ["audit", "audit.nav"],
  ["evidence", "evidence.nav"],
];

/** What the contract's access table says the menu of `roles` holds, in the menu's order. */
function expectedItems(roles: Role[]): string[] {
  const pages = PAGES.filter(([route]) => {
    const action = ROUTE_ACTIONS[route];
    return action === null || can(roles, action);
  });
  return [
    "nav.profile",
    "nav.account",
    ...(can(roles, "users.create") ? ["nav.newProfile"] : []),
    "nav.help",
    ...pages.map(([, key]) => key),
    "nav.logout",
  ].map((key) => i18n.t(key));
}

beforeAll(async () => {
  await setUpComponentTests();
  // Every page of the menu offered: the partner courses show only with this setting.
  settings["show-external-trainings"] = true;
});
afterEach(() => {
  cleanup();
  sessionStore.clear();
});

describe("user menu", () => {
  const cases: Role[][] = [...ROLES.map((r) => [r]), ["supervisor", "employee"], ["administrator", "employee"]];

  it.each(cases.map((roles) => [roles.join("+"), roles] as const))(
    "shows %s the items the access table allows",
    (_, roles) => {
      signInAs(roles);
      renderScreen(<UserMenu />);
      fireEvent.click(screen.getByTestId("user-menu"));
      const items = screen.getAllByRole("menuitem").map((el) => el.textContent?.trim());
      expect(items).toEqual(expectedItems(roles));
    },
  );

  it("differs by role as spec §2 and §6 say: staff pages for staff, none for employees", () => {
    const staffPages = PAGES.filter(([route]) => route !== "myQuestions").map(([, key]) => i18n.t(key));
    expect(expectedItems(["employee"]).filter((i) => staffPages.includes(i))).toEqual([]);
    // Learners have their own questions and the replies (issue 30); staff without trainings do not.
    expect(expectedItems(["employee"])).toContain(i18n.t("nav.myQuestions"));
    expect(expectedItems(["administrator"])).not.toContain(i18n.t("nav.myQuestions"));
    expect(expectedItems(["supervisor"])).not.toContain(i18n.t("nav.newProfile"));
    expect(expectedItems(["administrator"])).toContain(i18n.t("nav.newProfile"));
    expect(expectedItems(["superchris"])).toEqual(expect.arrayContaining(staffPages));
  });
});
