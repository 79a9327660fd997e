import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, expectNoSidewaysScroll, THEMES, text, transitionsDone } from "./helpers";

/**
 * The four themes' colours: the theme gallery (/theme-gallery) renders every colour and variant
 * the app gives its buttons, badges, icons, alerts and texts (apps/web/src/theme/gallery.ts, kept
 * complete by themes.test.ts), each form control, table, progress, notification and the quiz's
 * marks, with a date picker, a menu, a popover and a tooltip open; axe scans it in each theme,
 * then again with a dialog open. The screens' own scans run once, in one theme (helpers.ts).
 */

async function openGallery(page: Page, theme: string, language: string): Promise<void> {
  await page.evaluate(
    ([language, theme]) => localStorage.setItem("carecampus.preferences", JSON.stringify({ language, theme })),
    [language, theme],
  );
  await page.goto("/theme-gallery");
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  await expect(page.getByTestId("gallery-items")).toBeVisible();
  await expect(page.getByRole("menu")).toBeVisible();
  await expect(page.getByRole("tooltip")).toBeVisible();
}

test("every component variant passes axe in each of the four themes, with its overlays and a dialog open", async ({
  page,
}) => {
  // A page of the app for localStorage's origin: the login, which needs no session.
  await page.goto("/login");
  for (const theme of THEMES) {
    await test.step(theme, async () => {
      await openGallery(page, theme, "de");
      await expectAccessible(page, `the theme gallery (${theme})`, { soft: true });
      await page.getByTestId("gallery-open-dialog").click();
      const dialog = page.getByRole("dialog", { name: text("de", "common.save") });
      await expect(dialog).toBeVisible();
      await transitionsDone(page);
      await expectAccessible(page, `the theme gallery's dialog (${theme})`, { soft: true });
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    });
  }
  await expectNoSidewaysScroll(page, "the theme gallery");
});
