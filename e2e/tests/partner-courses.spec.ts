import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import {
  createTeam,
  exactly,
  expectAccessible,
  goInApp,
  loginWith,
  openAs,
  runTimers,
  setLanguage,
  type TestUser,
  text,
} from "./helpers";

/*
 * External courses of a partner provider (issue 17). The e2e server runs the reference partner
 * (the test peer, PARTNER_PEER=true) with its demo catalogue: two courses for
 * 'Sturzprophylaxe nach Expertenstandard' (one of which, fall-risk-check, counts as its
 * certificate: EXTERNAL_COURSES_CERTIFY) and one for 'Demenz verstehen'.
 */

const KINAESTHETICS = "Kinästhetik im Pflegealltag: Bewegung sanft unterstützen";

/** The learner's URL of a demo training, by topic and training name. */
async function trainingPath(request: APIRequestContext, who: TestUser, topicName: string, trainingName: string) {
  const { token } = await loginWith(request, who);
  const headers = { authorization: `Bearer ${token}` };
  const topics = (await (await request.get("/api/progress/topics", { headers })).json()) as {
    id: number;
    name: string;
  }[];
  const topic = topics.find((t) => t.name === topicName);
  const detail = (await (await request.get(`/api/progress/topics/${topic?.id}/trainings`, { headers })).json()) as {
    trainings: { id: number; name: string }[];
  };
  const training = detail.trainings.find((t) => t.name === trainingName);
  return `/topic/${topic?.id}/training/${training?.id}`;
}

/** Clicks through the course at the partner (its pages are German: it is the partner's site) and comes back. */
async function completeAtPartner(page: Page, pages: number) {
  for (let n = 1; n <= pages; n += 1) {
    await expect(page.getByRole("heading", { name: `Seite ${n} von ${pages}` })).toBeVisible();
    await page.getByRole("button", { name: n === pages ? "Kurs abschließen" : "Weiter" }).click();
  }
  await expect(page.getByRole("heading", { name: "Kurs abgeschlossen" })).toBeVisible();
  await page.getByRole("link", { name: "Zurück zu CareCampus" }).click();
}

test("an employee completes a partner course from a training and gets its certificate as the training's @phone", async ({
  page,
}) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  const path = await trainingPath(page.request, employee, "Sturzprophylaxe", "Sturzprophylaxe nach Expertenstandard");
  await openAs(page, employee, path, employee.password);
  const section = page.getByTestId("partner-courses");
  await expect(section.getByRole("heading", { name: exactly("de", "partnerCourses.title") })).toBeVisible();
  const courses = section.getByTestId("partner-course");
  await expect(courses).toHaveCount(2);

  // Spec §5: longer than 40 characters → 37 plus '...'; the whole name on focus.
  const long = section.locator('[data-course="kinaesthetics-basics"]');
  // The icon comes from the partner's own origin (the peer on 127.0.0.1), inlined by the server.
  await expect(long.locator('img[src^="data:image/svg+xml;base64,"]')).toBeVisible();
  await expect(long.getByTestId("partner-course-short")).toHaveText(`${[...KINAESTHETICS].slice(0, 37).join("")}...`);
  await long.getByTestId("partner-course-name").hover();
  await expect(page.getByTestId("partner-course-fullname")).toHaveText(KINAESTHETICS);
  await expect(long.getByTestId("partner-course-progress")).toHaveText(text("de", "partnerCourses.notStarted"));
  await expect(page.getByText(text("de", "training.noCertificate"))).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectAccessible(page, "training page with external trainings");

  const fall = section.locator('[data-course="fall-risk-check"]');
  await expect(fall.getByText(text("de", "partnerCourses.countsForTraining"))).toBeVisible();
  await fall.getByRole("link", { name: new RegExp(`^${text("de", "partnerCourses.open")}`) }).click();
  await completeAtPartner(page, 2);

  // Back in CareCampus: progress, the partner's certificate and the training's own certificate.
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  const back = page.getByTestId("partner-courses").locator('[data-course="fall-risk-check"]');
  await expect(back.getByTestId("partner-course-progress")).toHaveText(
    text("de", "partnerCourses.progress", { count: 2, total: 2 }),
  );
  const certificate = back.getByTestId("partner-certificate");
  await expect(certificate).toBeVisible();
  await expect(page.getByText(text("de", "training.noCertificate"))).toHaveCount(0);
  const href = await certificate.getAttribute("href");
  const pdf = await page.request.get(href ?? "");
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

  // The same record as our own certificates: /profile lists it.
  await goInApp(page, "/profile");
  await expect(
    page.getByTestId("my-certificate").filter({ hasText: "Sturzprophylaxe nach Expertenstandard" }),
  ).toBeVisible();

  // The theme's colours are checked over every component variant (themes.spec.ts).
  await goInApp(page, path);
  await expect(page.getByTestId("partner-course")).toHaveCount(2);
  await expectAccessible(page, "external trainings");
});

test("in English: a training without partner courses says so; a dementia course is completed; the token is renewed", async ({
  page,
}) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  await setLanguage(page.request, employee, "en");
  const none = await trainingPath(page.request, employee, "Datenschutz und Schweigepflicht", "Schweigepflicht");
  await openAs(page, employee, none, employee.password);
  await expect(page.getByTestId("partner-courses-none")).toHaveText(text("en", "partnerCourses.none"));

  await page.clock.install();
  const path = await trainingPath(page.request, employee, "Begleitung von Menschen mit Demenz", "Demenz verstehen");
  await page.goto(path);
  const course = page.getByTestId("partner-courses").locator('[data-course="dementia-communication"]');
  await expect(course).toBeVisible();
  await expect(course.getByText(text("en", "partnerCourses.countsForTraining"))).toHaveCount(0);

  // Spec §9: renewed 20 s before valid_until (the peer's tokens live 120 s).
  const renewed = page.waitForRequest((r) => r.url().includes("/api/external-course/token"));
  await runTimers(page, 101_000);
  await renewed;

  await course.getByRole("link", { name: new RegExp(`^${text("en", "partnerCourses.open")}`) }).click();
  await completeAtPartner(page, 3);
  const back = page.getByTestId("partner-courses").locator('[data-course="dementia-communication"]');
  await expect(back.getByTestId("partner-course-progress")).toHaveText(
    text("en", "partnerCourses.progress", { count: 3, total: 3 }),
  );
  await expect(back.getByTestId("partner-certificate")).toContainText("Certificate of");
  await expect(
    back.getByRole("link", { name: new RegExp(`^${text("en", "partnerCourses.openAgain")}`) }),
  ).toBeVisible();
  // Not configured to count: the training still has no certificate of its own.
  await expect(page.getByText(text("en", "training.noCertificate"))).toBeVisible();
  // /profile keeps it among the certificates of external courses.
  await goInApp(page, "/profile");
  const kept = page.getByTestId("my-partner-certificate");
  await expect(kept).toHaveCount(1);
  await expect(kept).toContainText("Kommunikation mit Menschen mit Demenz");
  await expect(kept).toContainText("Demenz verstehen");
});

test("a supervisor sees which of the facility's employees did which partner course, not another facility's @phone", async ({
  page,
  browser,
}) => {
  const { facility, supervisor, employee } = await createTeam(page.request, ["supervisor", "employee"]);
  const other = await createTeam(page.request, ["employee"]);
  const path = await trainingPath(page.request, employee, "Sturzprophylaxe", "Sturzprophylaxe nach Expertenstandard");
  // Both learners start at the partner: one in this facility, one elsewhere.
  for (const learner of [employee, other.employee]) {
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const learnerPage = await context.newPage();
    await openAs(learnerPage, learner, path, learner.password);
    await learnerPage
      .locator('[data-course="fall-risk-check"]')
      .getByRole("link", { name: new RegExp(`^${text("de", "partnerCourses.open")}`) })
      .click();
    await completeAtPartner(learnerPage, 2);
    await expect(
      learnerPage.locator('[data-course="fall-risk-check"]').getByTestId("partner-certificate"),
    ).toBeVisible();
    await context.close();
  }

  await setLanguage(page.request, supervisor, "en");
  await openAs(page, supervisor, "/", supervisor.password);
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: text("en", "nav.partnerCourses") }).click();
  await expect(page.getByRole("heading", { name: text("en", "partnerCourses.adminTitle") })).toBeVisible();
  await page.getByRole("combobox", { name: text("en", "partnerCourses.adminPick") }).click();
  await page.getByRole("option", { name: "Sturzprophylaxe nach Expertenstandard" }).click();
  const users = page.getByTestId("partner-admin-user");
  await expect(users).toHaveCount(1);
  await expect(users.first()).toContainText(`${employee.surname}, ${employee.name}`);
  await expect(users.first()).toContainText(facility.name);
  await expect(users.first()).toContainText(text("en", "partnerCourses.progress", { count: 2, total: 2 }));
  await expect(page.getByText(other.employee.surname)).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectAccessible(page, "staff view of partner courses");
});
