import { expect, test } from "@playwright/test";
import { createTeam, dismissTutorial, openAs, setLanguage, TEST_PASSWORD, unique } from "./helpers";

test.describe("account panels", () => {
  test("change the username, the e-mail and the password @phone", async ({ page }) => {
    const { employee } = await createTeam(page.request, ["employee"]);
    const renamed = `neu.${unique()}`;
    await openAs(page, employee, "/account");
    const username = page.getByRole("form", { name: "Benutzernamen ändern" });
    const save = username.getByRole("button", { name: "Speichern" });
    await expect(save).toBeDisabled();
    await username.getByLabel("Neuer Benutzername").fill("mit leerzeichen");
    await expect(username.getByText("Der Benutzername darf keine Leerzeichen enthalten")).toBeVisible();
    await expect(save).toBeDisabled();
    // A zero-width space would make a look-alike of another login (issue 27).
    await username.getByLabel("Neuer Benutzername").fill("admin\u200B");
    await expect(username.getByText(/darf keine unsichtbaren Zeichen/)).toBeVisible();
    await expect(save).toBeDisabled();
    // A demo login, read only: it is taken.
    await username.getByLabel("Neuer Benutzername").fill("admin");
    await save.click();
    await expect(page.getByText("Dieser Benutzername ist bereits vergeben")).toBeVisible();
    await username.getByLabel("Neuer Benutzername").fill(renamed);
    await save.click();
    await expect(page.getByText("Konto geändert").first()).toBeVisible();
    await expect(username.getByLabel("Aktueller Benutzername")).toHaveValue(renamed);

    const email = page.getByRole("form", { name: /E-Mail-Adresse (ändern|hinzufügen)/ });
    const emailSave = email.getByRole("button", { name: "Speichern" });
    await email.getByLabel("E-Mail-Adresse", { exact: true }).fill(`${renamed}@example.org`);
    await email.getByLabel("E-Mail-Adresse bestätigen").fill(`${renamed}@example.com`);
    await expect(email.getByText("Die E-Mail-Adressen stimmen nicht überein")).toBeVisible();
    await expect(emailSave).toBeDisabled();
    await email.getByLabel("E-Mail-Adresse bestätigen").fill(`${renamed}@example.org`);
    await emailSave.click();
    await expect(email.getByLabel("Aktuelle E-Mail-Adresse")).toHaveValue(`${renamed}@example.org`);

    const password = page.getByRole("form", { name: "Passwort ändern" });
    const pwSave = password.getByRole("button", { name: "Speichern" });
    await password.getByLabel("Aktuelles Passwort").fill(TEST_PASSWORD);
    await password.getByLabel("Neues Passwort", { exact: true }).fill("schwach");
    await password.getByLabel("Neues Passwort wiederholen").fill("schwach");
    await expect(password.getByText("Mindestens ein Großbuchstabe")).toBeVisible();
    await expect(pwSave).toBeDisabled();
    await password.getByLabel("Neues Passwort", { exact: true }).fill("Neu-Pass-42");
    await password.getByLabel("Neues Passwort wiederholen").fill("Neu-Pass-43");
    await expect(password.getByText("Die Passwörter stimmen nicht überein")).toBeVisible();
    await expect(pwSave).toBeDisabled();
    await password.getByLabel("Neues Passwort wiederholen").fill("Neu-Pass-42");
    await pwSave.click();
    await expect(page.getByText("Passwort geändert – bitte melden Sie sich neu an")).toBeVisible();
    await expect(page).toHaveURL(/\/login/);

    // Log in with the new name and password.
    await page.getByLabel("Benutzername").fill(renamed);
    await page.getByLabel("Passwort", { exact: true }).fill("Neu-Pass-42");
    await page.getByRole("button", { name: "Anmelden" }).click();
    await dismissTutorial(page);
    await expect(page).toHaveURL(/\/account$/);
  });

  test("the account screen in English", async ({ page }) => {
    const { employee } = await createTeam(page.request, ["employee"]);
    await setLanguage(page.request, employee, "en");
    await openAs(page, employee, "/account");
    await expect(page.getByRole("heading", { name: "My account" })).toBeVisible();
    const password = page.getByRole("form", { name: "Change password" });
    await password.getByLabel("Current password").fill("Wrong-Pass-1");
    await password.getByLabel("New password", { exact: true }).fill("Neu-Pass-42");
    await password.getByLabel("Repeat new password").fill("Neu-Pass-42");
    await password.getByRole("button", { name: "Save" }).click();
    // Said at the field it concerns, in the user's language.
    await expect(password.getByText("The current password is wrong")).toBeVisible();
    await expect(page.getByText("Username or password is wrong")).toHaveCount(0);
    await expect(page).toHaveURL(/\/account$/);

    // An address the server would refuse: the app says so in English, not the browser in its language.
    const email = page.getByRole("form", { name: /e-mail address/i });
    await email.getByLabel("E-mail address", { exact: true }).fill("name@example");
    await email.getByLabel("Confirm e-mail address").fill("name@example");
    await email.getByRole("button", { name: "Save" }).click();
    await expect(email.getByText("Please enter a valid e-mail address, e.g. name@example.com")).toBeVisible();
  });
});
