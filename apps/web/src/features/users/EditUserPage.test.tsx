// @vitest-environment jsdom
import { type AdminUser, api, type Catalogue, ErrorCode, type NamedItem, type Role } from "@carecampus/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Toasts } from "../../app/Toasts";
import i18n from "../../i18n";
import { ApiFailure, held, type Stub, stubApi } from "../../test/api";
import { cleanUpScreen, fieldLabelled, renderScreen, setUpComponentTests, signInAs } from "../../test/render";
import EditUserPage from "./EditUserPage";

const CATALOGUE: Catalogue = [
  {
    id: 1,
    name: "Hygiene",
    icon: "hygiene",
    color: "#0f766e",
    trainings: [
      { id: 11, name: "Händehygiene", icon: "hygiene", passive: false },
      { id: 12, name: "Flächendesinfektion", icon: "hygiene", passive: false },
    ],
  },
];

const CREATED: AdminUser = {
  id: 5,
  name: "Emma",
  surname: "Neu",
  login: "emma.neu",
  email: null,
  salutation: "-",
  roles: ["employee"],
  facility: { id: 1, name: "Haus Sonnenhof" },
  activities: [],
  qualifications: [],
};

/** What the empty form of a new user loads. */
const LISTS: Stub[] = [
  { route: api.catalogue, answer: CATALOGUE },
  { route: api.facilityList, answer: [{ id: 1, name: "Haus Sonnenhof" }] },
  { route: api.qualificationList, answer: [] },
  { route: api.activityList, answer: [] },
  { route: api.externalList, answer: [] },
];

const type = (key: string, value: string) => {
  const input = fieldLabelled(key);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
  return input;
};
const saveButton = () => screen.getByRole("button", { name: i18n.t("common.save") });

/** The new-user form of an administrator (facility 1) or a superchris, with the users list behind it. */
async function openNewUser(roles: Role[] = ["administrator"]) {
  signInAs(roles);
  renderScreen(
    <>
      <Toasts />
      <Routes>
        <Route path="/edituser" element={<EditUserPage />} />
        <Route path="/users" element={<p>users list</p>} />
      </Routes>
    </>,
    "/edituser",
  );
  await screen.findByRole("heading", { name: i18n.t("editUser.createTitle") });
}

/** Every field the contract's rule asks of a new employee. */
function fillValidUser() {
  type("editUser.name", "Emma");
  type("editUser.surname", "Neu");
  type("editUser.login", " emma.neu ");
  type("editUser.password", "Sonnen-Blume-26");
}

beforeAll(setUpComponentTests);
afterEach(cleanUpScreen);

describe("edit user page", () => {
  it("says at the field what the contract's user-form rule finds, and keeps save disabled", async () => {
    stubApi(LISTS);
    await openNewUser();
    fillValidUser();
    await waitFor(() => expect(saveButton().hasAttribute("disabled")).toBe(false));

    const login = type("editUser.login", "emma neu");
    expect(await screen.findByText(i18n.t("account.username.noSpaces"))).toBeTruthy();
    expect(login.getAttribute("aria-invalid")).toBe("true");
    expect(saveButton().hasAttribute("disabled")).toBe(true);

    type("editUser.login", "emma.neu");
    await waitFor(() => expect(screen.queryByText(i18n.t("account.username.noSpaces"))).toBeNull());
    // A zero-width space: a look-alike of another login (issue 27).
    type("editUser.login", "emma.neu\u200B");
    expect(await screen.findByText(i18n.t("account.username.invisible"))).toBeTruthy();
    expect(saveButton().hasAttribute("disabled")).toBe(true);
    type("editUser.login", "emma.neu");
    await waitFor(() => expect(screen.queryByText(i18n.t("account.username.invisible"))).toBeNull());
    // A weak password: the list names every rule it breaks.
    type("editUser.password", "kurz");
    expect(screen.getByTestId("password-problems").textContent).toContain(i18n.t("password.length"));
    expect(saveButton().hasAttribute("disabled")).toBe(true);
  });

  it("disables save while saving, then sends one user and goes back to the list", async () => {
    const saving = held<AdminUser>();
    const requests = stubApi([...LISTS, { route: api.adminUserCreate, answer: () => saving.answer }]);
    await openNewUser();
    fillValidUser();
    await waitFor(() => expect(saveButton().hasAttribute("disabled")).toBe(false));

    fireEvent.click(saveButton());
    await waitFor(() => expect(saveButton().hasAttribute("disabled")).toBe(true));
    expect(saveButton().getAttribute("data-loading")).toBe("true");
    const sent = requests.filter((r) => r.method === "POST");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({
      name: "Emma",
      surname: "Neu",
      login: "emma.neu",
      password: "Sonnen-Blume-26",
      roles: ["employee"],
      facility: 1,
      additional_qualifications: [],
    });
    // Untouched, a new user keeps 'every training': no matrix is sent.
    expect(sent[0]?.body).not.toHaveProperty("trainings");

    saving.release(CREATED);
    expect(await screen.findByText("users list")).toBeTruthy();
    expect(await screen.findByText(i18n.t("success.SUC_USER_CREATED"))).toBeTruthy();
  });

  it("shows the server's refusal and keeps the form for another try", async () => {
    stubApi([
      ...LISTS,
      {
        route: api.adminUserCreate,
        answer: () => {
          throw new ApiFailure(ErrorCode.loginInUse);
        },
      },
    ]);
    await openNewUser();
    fillValidUser();
    await waitFor(() => expect(saveButton().hasAttribute("disabled")).toBe(false));

    fireEvent.click(saveButton());
    expect(await screen.findByText(i18n.t(`errors.${ErrorCode.loginInUse}`))).toBeTruthy();
    await waitFor(() => expect(saveButton().hasAttribute("disabled")).toBe(false));
    expect(screen.getByRole("heading", { name: i18n.t("editUser.createTitle") })).toBeTruthy();
    expect(fieldLabelled("editUser.login").value).toBe(" emma.neu ");
    expect(screen.queryByText("users list")).toBeNull();
  });

  it("adds a facility where the form chooses one, selects it and says so", async () => {
    const facilities: NamedItem[] = [{ id: 1, name: "Haus Sonnenhof" }];
    const adding = held<NamedItem>();
    const requests = stubApi([
      ...LISTS.filter((s) => s.route !== api.facilityList),
      { route: api.facilityList, answer: () => facilities },
      { route: api.facilityCreate, answer: () => adding.answer },
    ]);
    await openNewUser(["superchris"]);
    fillValidUser();
    // An employee needs a facility: none chosen yet, so nothing may be saved.
    expect(saveButton().hasAttribute("disabled")).toBe(true);
    const add = screen.getByRole("button", { name: i18n.t("editUser.addFacility") });
    expect(add.hasAttribute("disabled")).toBe(true);

    fireEvent.change(fieldLabelled("editUser.newFacility"), { target: { value: "  Haus Lindenhof " } });
    fireEvent.click(add);
    await waitFor(() => expect(requests.some((r) => r.method === "POST")).toBe(true));
    expect(requests.find((r) => r.method === "POST")?.body).toEqual({ name: "Haus Lindenhof" });
    facilities.push({ id: 2, name: "Haus Lindenhof" });
    adding.release({ id: 2, name: "Haus Lindenhof" });

    expect(await screen.findByText(i18n.t("success.facilityAdded"))).toBeTruthy();
    // The select's label names its input and its list of options: the input shows the choice.
    const facilityInput = () =>
      screen
        .getAllByLabelText(new RegExp(`^${i18n.t("editUser.facility")}\\s*\\*?$`))
        .find((e): e is HTMLInputElement => e instanceof HTMLInputElement);
    await waitFor(() => expect(facilityInput()?.value).toBe("Haus Lindenhof"));
    expect(fieldLabelled("editUser.newFacility").value).toBe("");
    await waitFor(() => expect(saveButton().hasAttribute("disabled")).toBe(false));
  });
});
