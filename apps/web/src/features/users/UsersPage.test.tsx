// @vitest-environment jsdom
import { type AdminUser, can, ROLES, type Role } from "@carecampus/contract";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n";
import { sessionStore } from "../../session/store";
import { renderScreen, setUpComponentTests, signInAs } from "../../test/render";
import UsersPage from "./UsersPage";

/** A colleague in the viewer's facility: the one card of the list. */
const COLLEAGUE: AdminUser = {
  id: 2,
  name: "Greta",
  surname: "Kollegin",
  login: "greta",
  email: null,
  salutation: "Ms",
  roles: ["administrator"],
  facility: { id: 1, name: "Haus Sonnenhof" },
  activities: [],
  qualifications: [],
};

// The list as the server would send it; nothing else of the page talks to the API before a click.
vi.mock("./queries", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./queries")>()),
  useUserSearch: () => ({ data: { users: [COLLEAGUE], total: 1 } }),
}));

beforeAll(setUpComponentTests);
afterEach(() => {
  cleanup();
  sessionStore.clear();
});

/** The page's buttons a role sees: new profile and import in the header, edit and delete on a card. */
async function visibleButtons(): Promise<string[]> {
  fireEvent.click(screen.getByRole("button", { name: /Greta Kollegin/ }));
  // The card's panel opens a frame later; hidden, its buttons would not count.
  await screen.findByRole("region");
  const shown = (role: "button" | "link", key: string) => screen.queryAllByRole(role, { name: i18n.t(key) }).length > 0;
  return [
    shown("link", "nav.newProfile") && "create",
    shown("button", "usersImport.open") && "import",
    shown("link", "users.edit") && "edit",
    shown("button", "users.delete") && "delete",
  ].filter((b): b is string => b !== false);
}

describe("users page buttons", () => {
  const cases: Role[][] = [...ROLES.map((r) => [r]), ["supervisor", "employee"]];

  it.each(cases.map((roles) => [roles.join("+"), roles] as const))(
    "shows %s the buttons the access table allows",
    async (_, roles) => {
      signInAs(roles);
      renderScreen(<UsersPage />, "/users");
      const expected = [
        can(roles, "users.create") && "create",
        can(roles, "users.import") && "import",
        can(roles, "user.edit") && "edit",
        can(roles, "user.delete") && "delete",
      ].filter((b): b is string => b !== false);
      expect(await visibleButtons()).toEqual(expected);
    },
  );

  it("offers no edit or delete on the viewer's own card", async () => {
    signInAs(["administrator"], COLLEAGUE.id);
    renderScreen(<UsersPage />, "/users");
    expect(await visibleButtons()).toEqual(["create"]);
  });
});
