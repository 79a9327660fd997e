import { expect, test } from "@playwright/test";
import { createTeam, exactly, expectAccessible, openAs, openUserMenu, setLanguage } from "./helpers";

for (const lang of ["de", "en"]) {
  test(`after an update, a page whose script is gone offers a reload (${lang})`, async ({ page }) => {
    const { employee } = await createTeam(page.request, ["employee"]);
    await setLanguage(page.request, employee, lang);
    await openAs(page, employee, "/");
    // The servers now run a newer build: the profile page's script of the old one is gone (404).
    await page.route(/\/assets\/ProfilePage-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: "" }));
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: exactly(lang, "nav.profile") }).click();
    const heading = page.getByRole("heading", { name: exactly(lang, "errorPage.title") });
    await expect(heading).toBeFocused();
    await expect(page.getByText(exactly(lang, "errorPage.newVersion"))).toBeVisible();
    await expectAccessible(page, "error page");
    await page.unroute(/\/assets\/ProfilePage-[^/]+\.js$/);
    await page.getByRole("button", { name: exactly(lang, "errorPage.reload") }).click();
    await expect(page.getByRole("heading", { name: exactly(lang, "profile.title") })).toBeVisible();
  });
}
