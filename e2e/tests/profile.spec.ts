import { expect, test } from "@playwright/test";
import { apiLogin, openAs, patchAs } from "./helpers";

test("change avatar, theme and language @phone", async ({ page }) => {
  // Start from the demo user's own preferences, whatever an earlier run left.
  const { token, user } = await apiLogin(page, "employee2");
  for (const [property, value] of [
    ["avatar", "dolphin"],
    ["theme", "carely"],
    ["language", "de"],
  ]) {
    await patchAs(page, token, `/api/preferences/${user.id}`, { property, value });
  }
  await openAs(page, "employee2", "/profile");
  await expect(page.getByRole("heading", { name: "Mein Profil" })).toBeVisible();

  await page.getByRole("button", { name: "Fuchs" }).click();
  await expect(page.getByText("Profil geändert").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Fuchs" })).toHaveAttribute("aria-pressed", "true");

  await page.getByText("Dunkel", { exact: true }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");

  await page.getByTestId("language-select").click();
  await page.getByRole("option", { name: "English" }).click();
  await expect(page.getByRole("heading", { name: "My profile" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  // The choice is stored: it survives a reload.
  await page.reload();
  await expect(page.getByRole("heading", { name: "My profile" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");

  // Put everything back for the other specs.
  await page.getByText("Carely", { exact: true }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
  await page.getByRole("button", { name: "Dolphin" }).click();
  await page.getByTestId("language-select").click();
  await page.getByRole("option", { name: "Deutsch" }).click();
  await expect(page.getByRole("heading", { name: "Mein Profil" })).toBeVisible();
});
