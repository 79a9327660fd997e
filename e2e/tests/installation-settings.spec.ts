import { expect, type Page, test } from "@playwright/test";
import {
  applyPreference,
  createTeam,
  dismissTutorial,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  goInApp,
  openAs,
  openUserMenu,
  text,
  tokenOf,
  trainingPlace,
} from "./helpers";

/** This installation greets a new session with the QM notice, then the tutorial prompt: both closed. */
async function closeStartupDialogs(page: Page): Promise<void> {
  const notice = page.getByRole("dialog", { name: "Hinweis zum Qualitätsmanagement" });
  await notice.getByRole("button", { name: "Schließen" }).first().click();
  await expect(notice).toBeHidden();
  await dismissTutorial(page);
}

/*
 * This project's server is an installation with settings of its own: THEME=ocean,
 * SHOW_CONTENT_VERSION=true, SHOW_QUESTION_TYPE=false, SHOW_LEGAL_COMPLIANCE=true and
 * ALTERNATIVE_CALLBACK_URL pointing at its health address (a stand-in for the portal a
 * facility's staff come from).
 */

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

test("the version dialog names the content package's version", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  const session = await openAs(page, employee, "/");
  const res = await page.request.get("/api/content/CurrentContentVersion", {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const { version } = (await res.json()) as { version: string };
  expect(version).toMatch(/^\d{4}\.\d+\.\d+$/);
  await closeStartupDialogs(page);
  await page.getByRole("button", { name: new RegExp(text("de", "version.open")) }).click();
  await expect(page.getByRole("dialog").getByTestId("content-version")).toHaveText(
    `${text("de", "version.content")}: ${version}`,
  );
  await expectAccessible(page, "the version dialog with the content version");
});

test("without the question type the quiz shows only the round above the answers", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  const token = await tokenOf(page.request, employee);
  const { quizzes } = await trainingPlace(page.request, token, "Brandschutz", "Brandschutz im Pflegeheim");
  await openAs(page, employee, quizzes[0] ?? "", employee.password);
  await closeStartupDialogs(page);
  await page.getByText(text("de", "quiz.independence.confirm")).click();
  await page.getByRole("button", { name: exactly("de", "quiz.goToQuestion") }).click();
  await expect(page.getByTestId("question-text")).toBeVisible();
  await expect(page.getByText(text("de", "quiz.round", { round: 1 }))).toBeVisible();
  await expect(page.getByTestId("question-type")).toHaveCount(0);
  await expect(page.getByText(text("de", "quiz.single"))).toHaveCount(0);
  await expect(page.getByText(text("de", "quiz.multiple"))).toHaveCount(0);
});

test("the training page names the law that makes the training mandatory (show-legal-compliance)", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  const token = await tokenOf(page.request, employee);
  const food = await trainingPlace(
    page.request,
    token,
    "Hygiene und Infektionsschutz",
    "Lebensmittelhygiene und Belehrung nach IfSG §§ 42, 43",
  );
  await page.clock.install();
  await openAs(page, employee, food.trainingPath, employee.password);
  await closeStartupDialogs(page);
  const legal = page.getByTestId("legal-basis");
  await expect(legal).toContainText(text("de", "training.legalBasis"));
  // The law as the content package writes it (content/demo/trainings/lebensmittelhygiene.yaml).
  await expect(legal).toContainText("§§ 42, 43 IfSG, § 4 LMHV, VO (EG) Nr. 852/2004 Anhang II Kap. XII");
  // Under the training's name.
  const heading = await page.getByRole("heading", { level: 1 }).boundingBox();
  const box = await legal.boundingBox();
  expect((box?.y ?? 0) > (heading?.y ?? 0) + (heading?.height ?? 0)).toBe(true);
  // The checks below take longer than this installation's 3 s of inactivity: the page's clock
  // stands still (its timers, axe's too, still run), so the lockout does not come in between.
  await page.clock.setFixedTime(new Date());
  await expectAccessible(page, "the training page with its legal basis");
  await expectNoSidewaysScroll(page, "the training page with its legal basis");

  // A training no law requires names none.
  const dementia = await trainingPlace(page.request, token, "Begleitung von Menschen mit Demenz", "Demenz verstehen");
  await goInApp(page, dementia.trainingPath);
  await expect(page.getByRole("heading", { name: "Demenz verstehen" })).toBeVisible();
  await expect(page.getByTestId("legal-basis")).toHaveCount(0);
});

test("logging out leads to the installation's portal (alternative-callback-url)", async ({ page, baseURL }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  await openAs(page, employee, "/");
  await closeStartupDialogs(page);
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: exactly("de", "nav.logout") }).click();
  await expect(page).toHaveURL(`${baseURL}/api/health`);
  // The session is over: the app asks for a login again.
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
});
