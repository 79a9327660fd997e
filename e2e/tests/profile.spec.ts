import { expect, test } from "@playwright/test";
import { createTeam, openAs } from "./helpers";

test("change avatar, theme and language @phone", async ({ page }) => {
  // A new user starts with the default avatar, the Carely theme and German.
  const { employee } = await createTeam(page.request, ["employee"]);
  await openAs(page, employee, "/profile");
  await expect(page.getByRole("heading", { name: "Mein Profil" })).toBeVisible();

  await page.getByRole("button", { name: "Fuchs" }).click();
  await expect(page.getByText("Profil geändert").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Fuchs" })).toHaveAttribute("aria-pressed", "true");

  await page.getByText("Dunkel", { exact: true }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");

  await page.getByTestId("language-select").click();
  await page.getByRole("option", { name: "English", exact: true }).click();
  await expect(page.getByRole("heading", { name: "My profile" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  // The choice is stored: it survives a reload.
  await page.reload();
  await expect(page.getByRole("heading", { name: "My profile" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");

  // And back: light again, another avatar, German.
  await page.getByText("Carely", { exact: true }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
  await page.getByRole("button", { name: "Dolphin" }).click();
  await expect(page.getByRole("button", { name: "Dolphin" })).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("language-select").click();
  await page.getByRole("option", { name: "Deutsch", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Mein Profil" })).toBeVisible();
});
