import { expect, test } from "@playwright/test";
import { apiLogin, DEMO_PASSWORD, dismissTutorial, openAs, patchAs } from "./helpers";

test.describe("account panels", () => {
  test("change the username, the e-mail and the password @phone", async ({ page }) => {
    const { user } = await openAs(page, "employee2", "/account");
    const username = page.getByRole("form", { name: "Benutzernamen ändern" });
    const save = username.getByRole("button", { name: "Speichern" });
    await expect(save).toBeDisabled();
    await username.getByLabel("Neuer Benutzername").fill("mit leerzeichen");
    await expect(username.getByText("Der Benutzername darf keine Leerzeichen enthalten")).toBeVisible();
    await expect(save).toBeDisabled();
    await username.getByLabel("Neuer Benutzername").fill("admin");
    await save.click();
    await expect(page.getByText("Dieser Benutzername ist bereits vergeben")).toBeVisible();
    await username.getByLabel("Neuer Benutzername").fill("lukasz.nowak");
    await save.click();
    await expect(page.getByText("Konto geändert").first()).toBeVisible();
    await expect(username.getByLabel("Aktueller Benutzername")).toHaveValue("lukasz.nowak");

    const email = page.getByRole("form", { name: /E-Mail-Adresse (ändern|hinzufügen)/ });
    const emailSave = email.getByRole("button", { name: "Speichern" });
    await email.getByLabel("E-Mail-Adresse", { exact: true }).fill("lukasz@example.org");
    await email.getByLabel("E-Mail-Adresse bestätigen").fill("lukasz@example.com");
    await expect(email.getByText("Die E-Mail-Adressen stimmen nicht überein")).toBeVisible();
    await expect(emailSave).toBeDisabled();
    await email.getByLabel("E-Mail-Adresse bestätigen").fill("lukasz@example.org");
    await emailSave.click();
    await expect(email.getByLabel("Aktuelle E-Mail-Adresse")).toHaveValue("lukasz@example.org");

    const password = page.getByRole("form", { name: "Passwort ändern" });
    const pwSave = password.getByRole("button", { name: "Speichern" });
    await password.getByLabel("Aktuelles Passwort").fill(DEMO_PASSWORD);
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

    // Log in with the new name and password, then put the demo user back as it was.
    await page.getByLabel("Benutzername").fill("lukasz.nowak");
    await page.getByLabel("Passwort", { exact: true }).fill("Neu-Pass-42");
    await page.getByRole("button", { name: "Anmelden" }).click();
    await dismissTutorial(page);
    await expect(page).toHaveURL(/\/account$/);
    const { token } = await apiLogin(page, "lukasz.nowak", "Neu-Pass-42");
    await patchAs(page, token, `/api/auth/users/${user.id}`, { property: "login", value: { value: "employee2" } });
    await patchAs(page, token, `/api/auth/users/${user.id}`, {
      property: "password",
      value: { password: "Neu-Pass-42", new_password: DEMO_PASSWORD },
    });
  });

  test("the account screen in English", async ({ page }) => {
    const { token, user } = await apiLogin(page, "employee");
    await patchAs(page, token, `/api/preferences/${user.id}`, { property: "language", value: "en" });
    try {
      await openAs(page, "employee", "/account");
      await expect(page.getByRole("heading", { name: "My account" })).toBeVisible();
      const password = page.getByRole("form", { name: "Change password" });
      await password.getByLabel("Current password").fill("Wrong-Pass-1");
      await password.getByLabel("New password", { exact: true }).fill("Neu-Pass-42");
      await password.getByLabel("Repeat new password").fill("Neu-Pass-42");
      await password.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("Username or password is wrong")).toBeVisible();
      await expect(page).toHaveURL(/\/account$/);
    } finally {
      await patchAs(page, token, `/api/preferences/${user.id}`, { property: "language", value: "de" });
    }
  });
});
