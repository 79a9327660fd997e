import { expect, test } from "@playwright/test";
import { openAs } from "./helpers";

// The server of this project issues 40-second tokens; the client refreshes 10 s before
// its timer (expiry − 20 s) runs out, so a session must survive well past one lifetime.
test("token refresh keeps the session alive past one token lifetime", async ({ page }) => {
  test.setTimeout(120_000);
  await openAs(page, "supervisor", "/profile");
  const first = await page.evaluate(() => localStorage.getItem("carecampus.token"));
  for (let i = 0; i < 9; i++) {
    await page.waitForTimeout(5_000);
    await page.mouse.move(100 + i * 10, 200);
  }
  const later = await page.evaluate(() => localStorage.getItem("carecampus.token"));
  expect(later).not.toBeNull();
  expect(later).not.toEqual(first);
  // A call with the refreshed token succeeds 45 s after the first token was issued.
  await page.getByText("Ozean", { exact: true }).click();
  await expect(page.getByText("Profil geändert")).toBeVisible();
  await page.getByText("Carely", { exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
});
