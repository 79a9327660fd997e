import { expect, test } from "@playwright/test";
import { answerTutorial, createTeam, expectAccessible, openAs } from "./helpers";

const COOKIE = "dont-show-carely-qm-msg-again";
const days = (expires: number) => Math.round((expires * 1000 - Date.now()) / 86_400_000);

// This project's server has SHOW_CARELY_QM_MSG=true.
test("the QM notice shows once: closing hides it for a day, 'don't show again' for 9999 days", async ({
  page,
  context,
}) => {
  const { supervisor } = await createTeam(page.request, ["supervisor"]);
  await openAs(page, supervisor, "/profile");
  const notice = page.getByRole("dialog", { name: "Hinweis zum Qualitätsmanagement" });
  await expect(notice).toBeVisible();
  await expectAccessible(page, "the QM notice");
  await notice.getByRole("button", { name: "Schließen" }).first().click();
  await expect(notice).toBeHidden();
  let cookie = (await context.cookies()).find((c) => c.name === COOKIE);
  expect(days(cookie?.expires ?? 0)).toBe(1);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Mein Profil" })).toBeVisible();
  await expect(notice).toBeHidden();

  await context.clearCookies();
  await page.reload();
  await expect(notice).toBeVisible();
  await notice.getByRole("button", { name: "Nicht mehr anzeigen" }).click();
  cookie = (await context.cookies()).find((c) => c.name === COOKIE);
  // The app asks for 9999 days; Chromium caps every cookie at 400 days.
  expect(days(cookie?.expires ?? 0)).toBe(400);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Mein Profil" })).toBeVisible();
  await expect(notice).toBeHidden();
});

test("the QM notice and the tutorial prompt open one after the other, never stacked", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"], { tutorialPrompt: true });
  // The form login of a new user: both start-up dialogs are due.
  await page.goto("/login");
  await page.getByLabel("Benutzername").fill(employee.login);
  await page.getByLabel("Passwort", { exact: true }).fill(employee.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  const notice = page.getByRole("dialog", { name: "Hinweis zum Qualitätsmanagement" });
  const tutorial = page.getByRole("dialog", { name: /Einführung/ });
  await expect(notice).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(1);
  // Its buttons take a tap: nothing lies over them.
  await notice.getByRole("button", { name: "Nicht mehr anzeigen" }).click();
  await expect(notice).toBeHidden();
  await expect(tutorial).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(1);
  await answerTutorial(page, /^Nein$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
