import { expect, test } from "@playwright/test";
import { openAs } from "./helpers";

// This project's server ends sessions after 0.05 minutes (3 s) without activity.
test("inactivity ends the session with the lockout dialog and its login button", async ({ page }) => {
  await openAs(page, "employee", "/profile");
  const dialog = page.getByRole("dialog", { name: "Sitzung beendet" });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => localStorage.getItem("carecampus.token"))).toBeNull();
  await dialog.getByRole("button", { name: "Erneut anmelden" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(dialog).toBeHidden();
});
