import { expect, test } from "@playwright/test";
import { alsoInEnglish, createTeam, exactly, expectAccessible, openAs, openUserMenu } from "./helpers";

/*
 * A rolling deploy while the app is open: the router's error screen offers a reload. Once, in
 * German at phone size with its axe scan; the error screen is shown in English (360 px)
 * in place, by alsoInEnglish.
 */

test("after an update, a page whose script is gone offers a reload @phone", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  await openAs(page, employee, "/");
  // The servers now run a newer build: the profile page's script of the old one is gone (404).
  await page.route(/\/assets\/ProfilePage-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: "" }));
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: exactly("de", "nav.profile") }).click();
  const heading = page.getByRole("heading", { name: exactly("de", "errorPage.title") });
  await expect(heading).toBeFocused();
  await expect(page.getByText(exactly("de", "errorPage.newVersion"))).toBeVisible();
  await expectAccessible(page, "error page");
  await alsoInEnglish(page, "error page", async (t) => {
    await expect(page.getByRole("heading", { name: t("errorPage.title"), exact: true })).toBeVisible();
    await expect(page.getByText(t("errorPage.newVersion"), { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: t("errorPage.reload"), exact: true })).toBeVisible();
  });
  await page.unroute(/\/assets\/ProfilePage-[^/]+\.js$/);
  await page.getByRole("button", { name: exactly("de", "errorPage.reload") }).click();
  await expect(page.getByRole("heading", { name: exactly("de", "profile.title") })).toBeVisible();
});
