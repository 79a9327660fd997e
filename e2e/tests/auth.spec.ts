import { expect, test } from "@playwright/test";
import {
  createTeam,
  DEMO_PASSWORD,
  dismissTutorial,
  expectAccessible,
  openAs,
  openUserMenu,
  TEST_PASSWORD,
} from "./helpers";

test.describe("login and logout", () => {
  // The demo login itself, read only: the README tells people to log in with it.
  test("an employee logs in with the form and logs out @phone", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    const submit = page.getByRole("button", { name: "Anmelden" });
    await expect(page.getByRole("img", { name: "CareCampus-Logo" })).toBeVisible();
    await expect(submit).toBeDisabled();
    await page.getByLabel("Benutzername").fill("employee");
    await expect(submit).toBeDisabled();
    await page.getByLabel("Passwort", { exact: true }).fill(DEMO_PASSWORD);
    await expect(submit).toBeEnabled();
    await submit.click();
    await dismissTutorial(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Meine Schulungen" })).toBeVisible();
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "Abmelden" }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem("carecampus.token"))).toBeNull();
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a wrong password gives the error toast and keeps the user on the login", async ({ page }) => {
    const { employee } = await createTeam(page.request, ["employee"]);
    await page.goto("/login");
    await page.getByLabel("Benutzername").fill(employee.login);
    await page.getByLabel("Passwort", { exact: true }).fill("Falsch-123!");
    await page.getByRole("button", { name: "Anmelden" }).click();
    await expect(page.getByText("Benutzername oder Passwort ist falsch")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("forgot password asks for a username first, then informs the admin", async ({ page }) => {
    const { employee } = await createTeam(page.request, ["administrator", "employee"]);
    await page.goto("/login");
    await page.getByRole("button", { name: "Passwort vergessen?" }).click();
    await expect(page.getByText("Bitte geben Sie einen Benutzernamen ein")).toBeVisible();
    await page.getByLabel("Benutzername").fill(employee.login);
    await page.getByRole("button", { name: "Passwort vergessen?" }).click();
    await expect(page.getByText("Ihr Administrator wurde informiert")).toBeVisible();
  });

  test("a deep link leads to the login and back to the deep link", async ({ page }) => {
    const { supervisor } = await createTeam(page.request, ["supervisor"]);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel("Benutzername").fill(supervisor.login);
    await page.getByLabel("Passwort", { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Anmelden" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await dismissTutorial(page);
    await expect(page.getByRole("heading", { name: "Mein Konto" })).toBeVisible();
  });
});

test.describe("roles", () => {
  test("an employee opening a staff page sees the not-found screen @phone", async ({ page }) => {
    const { employee } = await createTeam(page.request, ["employee"]);
    await openAs(page, employee, "/progress");
    await expect(page.getByRole("heading", { name: "Seite nicht gefunden" })).toBeVisible();
    await page.goto("/this/does/not/exist");
    await expect(page.getByRole("heading", { name: "Seite nicht gefunden" })).toBeVisible();
  });

  test("an administrator reaches the staff pages from the menu and has no trainings at /", async ({ page }) => {
    const { administrator } = await createTeam(page.request, ["administrator"]);
    await openAs(page, administrator, "/");
    await expect(page.getByTestId("no-training-access")).toBeVisible();
    await openUserMenu(page);
    // The menu scanned where it opens.
    await expectAccessible(page, "the user menu, open");
    await page.getByRole("menuitem", { name: "Fortschrittsübersicht" }).click();
    await expect(page).toHaveURL(/\/progress$/);
    await expect(page.getByTestId("legend")).toBeVisible();
    await page.getByRole("link", { name: "Zurück zur Startseite" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("the version label opens the version modal", async ({ page }) => {
    const { employee } = await createTeam(page.request, ["employee"]);
    await openAs(page, employee, "/");
    await page.getByRole("button", { name: "Versionsinformationen" }).click();
    const dialog = page.getByRole("dialog", { name: "Version" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Stand")).toBeVisible();
  });
});
