import { expect, test } from "@playwright/test";
import { createTeam, expectAccessible, openAs, runTimers, setPreference } from "./helpers";

// This project's server ends sessions after 0.05 minutes (3 s) without activity. Its users have the
// tutorial prompt turned off, as every user the factories make unless a test asks for it
// (helpers.createUser): answering it took longer than the session lasts on a loaded machine once.
test("inactivity ends the session with the lockout dialog and its login button", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  await page.clock.install();
  await openAs(page, employee, "/profile");
  const dialog = page.getByRole("dialog", { name: "Sitzung beendet" });
  // The browser's clock runs the 3 s of inactivity (and the once-a-second check) at once.
  await runTimers(page, 4_000);
  await expect(dialog).toBeVisible();
  await expectAccessible(page, "the lockout dialog (carely)");
  expect(await page.evaluate(() => localStorage.getItem("carecampus.token"))).toBeNull();
  await dialog.getByRole("button", { name: "Erneut anmelden" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(dialog).toBeHidden();
});

test("logging in again after the lockout returns to the page the user was on", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  // The session has ended, so the theme cannot be switched in place: this user works in the dark one.
  await setPreference(page.request, employee, "theme", "dark");
  await page.clock.install();
  await openAs(page, employee, "/account", employee.password);
  await runTimers(page, 4_000);
  const dialog = page.getByRole("dialog", { name: "Sitzung beendet" });
  await expect(dialog).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expectAccessible(page, "the lockout dialog (dark)");
  await dialog.getByRole("button", { name: "Erneut anmelden" }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The dialog closes (its fade-out runs on the page's clock) before the form is used.
  await expect(dialog).toBeHidden();
  // The login form is ready to type into: the user name has the focus.
  await expect(page.getByLabel("Benutzername")).toBeFocused();
  await page.keyboard.type(employee.login);
  await page.getByLabel("Passwort", { exact: true }).fill(employee.password);
  await page.getByRole("button", { name: "Anmelden", exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
});
