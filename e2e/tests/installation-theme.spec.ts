import { expect, test } from "@playwright/test";
import { applyPreference, createTeam, openAs } from "./helpers";

// This project's server has THEME=ocean: the installation's theme.
test("a new user starts in the installation's theme; their own choice wins, after a reload too", async ({ page }) => {
  await page.goto("/login");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "ocean");
  const { employee } = await createTeam(page.request, ["employee"]);
  // The QM notice greets a new session here: the check needs no closed dialog.
  await openAs(page, employee, "/profile");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "ocean");
  await applyPreference(page, "theme", "carely");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "carely");
});
