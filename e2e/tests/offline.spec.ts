import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { webCopyDir } from "../web-copy.mjs";
import {
  alsoInEnglish,
  createTeam,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  markResuscitationPassed,
  openAs,
  openUserMenu,
  text,
  trainingPlace,
  unique,
} from "./helpers";

/*
 * The service worker (issue 30), on a phone, on the installation's server (its own copy of the
 * web app, which the update test changes): the app starts without a network and says so; "my
 * certificates" and the PDFs opened before are there offline, also once the session has run out;
 * a new version is offered, but not in the middle of a questionnaire.
 */

/** The QM notice this installation shows after a login: answered already, as a returning user would have. */
async function qmNoticeAnswered(page: Page): Promise<void> {
  const url = test.info().project.use.baseURL as string;
  await page.context().addCookies([{ name: "dont-show-carely-qm-msg-again", value: "true", url }]);
}

/** Until the service worker controls the page (it claims the page at its first install). */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

test("offline: the app starts, says so, and shows my certificates with the PDFs opened before @phone", async ({
  page,
  context,
}) => {
  const { employee, administrator } = await createTeam(page.request, ["employee", "administrator"]);
  await qmNoticeAnswered(page);
  const training = await markResuscitationPassed(page.request, administrator, employee);
  await openAs(page, employee, "/profile");
  await controlled(page);
  const row = page.getByTestId("my-certificate").filter({ hasText: training.name });
  await expect(row).toBeVisible();
  // The certificate opened once, online: its PDF is kept on the device (without the token).
  const badge = row.locator("a[data-colour]");
  const href = (await badge.getAttribute("href")) ?? "";
  expect(href).toContain("token=");
  const online = await page.evaluate((url) => fetch(url).then((r) => r.headers.get("content-type")), href);
  expect(online).toContain("application/pdf");

  // The last page online is a server page for inspectors (/v): it must not become the app's shell.
  await page.goto("/v");
  await expect(page.locator("#root")).toHaveCount(0);
  await context.setOffline(true);
  await page.goto("/profile");
  // The shell came from the device: the offline notice, and the certificates kept at the last visit.
  await expect(page.getByTestId("offline-notice")).toHaveText(text("de", "session.offline"));
  await expect(page.getByTestId("kept-copy")).toContainText(`${employee.name} ${employee.surname}`);
  await expect(row).toBeVisible();
  await expect(row.locator("a[data-colour]")).toBeVisible();
  // Its training's icon too; and no error message for each call that could not go out.
  await expect
    .poll(() => row.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await expect(page.getByText(text("de", "errors.network"))).toHaveCount(0);
  const kept = await page.evaluate(async (url) => {
    const res = await fetch(url.replace(/token=[^&]*/, "token=expired"));
    return { status: res.status, type: res.headers.get("content-type"), size: (await res.arrayBuffer()).byteLength };
  }, href);
  expect(kept.status).toBe(200);
  expect(kept.type).toContain("application/pdf");
  expect(kept.size).toBeGreaterThan(1000);
  // Any other call is not answered from a cache: a PDF never opened, another person's, the API.
  const notKept = await page.evaluate(() =>
    fetch("/api/progress/export/certificate?id=999999").then(async (r) => ({ status: r.status, body: await r.json() })),
  );
  expect(notKept.status).toBe(503);
  expect(notKept.body.status_code).toBe(503);
  expect(
    await page.evaluate(() =>
      fetch("/api/health").then(
        () => "answered",
        () => "failed",
      ),
    ),
  ).toBe("failed");
  await expectAccessible(page, "my certificates offline");
  await expectNoSidewaysScroll(page, "my certificates offline");

  // The session ran out while the phone was offline: the login offers the kept certificates.
  await page.evaluate(() => localStorage.removeItem("carecampus.token"));
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  const name = `${employee.name} ${employee.surname}`;
  await expect(page.getByRole("status").filter({ hasText: text("de", "login.offline") })).toBeVisible();
  const open = page.getByRole("link", { name: exactly("de", "login.offlineCertificates", { name }) });
  await expectAccessible(page, "the login offline");
  await open.click();
  await expect(page.getByRole("heading", { level: 1, name: exactly("de", "offline.title") })).toBeFocused();
  await expect(page.getByTestId("kept-copy")).toContainText(name);
  await expect(row).toBeVisible();
  await expectAccessible(page, "my certificates offline without a session");
  await expectNoSidewaysScroll(page, "my certificates offline without a session");
  // The same in English (the language kept on the device), the PDF still opens.
  await page.evaluate(() =>
    localStorage.setItem("carecampus.preferences", JSON.stringify({ language: "en", theme: "dark" })),
  );
  await page.goto("/login");
  await expect(page.getByText(text("en", "login.offline"))).toBeVisible();
  await page.getByRole("link", { name: exactly("en", "login.offlineCertificates", { name }) }).click();
  await expect(page.getByRole("heading", { level: 1, name: exactly("en", "offline.title") })).toBeFocused();
  await expect(page.getByTestId("kept-copy")).toContainText(name);
  await expectAccessible(page, "my certificates offline in English, dark");
  await expectNoSidewaysScroll(page, "my certificates offline in English");

  // Back online: logging in and out removes the copy and its PDFs from the device.
  await context.setOffline(false);
  await openAs(page, employee, "/profile");
  await expect(row).toBeVisible();
  await expect.poll(() => page.evaluate(() => caches.has("carecampus-certificates"))).toBe(true);
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: exactly("de", "nav.logout") }).click();
  // This installation sends a logout to its portal (alternative-callback-url), after the copy went.
  await expect(page).toHaveURL(/\/api\/health$/);
  await expect.poll(() => page.evaluate(() => caches.has("carecampus-certificates"))).toBe(false);
});

test("a new version is offered, but not in the middle of a questionnaire @phone", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  await qmNoticeAnswered(page);
  const session = await openAs(page, employee, "/");
  await controlled(page);
  const place = await trainingPlace(page.request, session.token, "Brandschutz", "Brandschutz im Pflegeheim");
  await page.goto(place.quizzes[0] ?? "");
  await expect(page.getByText(text("de", "quiz.independence.confirm"))).toBeVisible();

  // A new build is deployed: its service worker installs and waits.
  const port = new URL(page.url()).port;
  fs.appendFileSync(path.join(webCopyDir(port), "sw.js"), `\n// a new build ${unique()}\n`);
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null))
    .toBe(true);
  const prompt = page.getByTestId("update-prompt");
  await expect(prompt).toHaveCount(0);

  // Out of the questionnaire, the new version is offered, without taking the focus.
  await page.goto(place.trainingPath);
  await expect(prompt).toBeVisible();
  await expect(prompt).toHaveText(new RegExp(text("de", "session.updateReady")));
  await expectAccessible(page, "the update prompt");
  await alsoInEnglish(page, "the update prompt", async (t) => {
    await expect(prompt.getByRole("button", { name: t("session.updateNow"), exact: true })).toBeVisible();
  });
  // Reloading switches to the new version: no worker is left waiting.
  await page.evaluate(() => {
    (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
  });
  await Promise.all([
    page.waitForEvent("load"),
    prompt.getByRole("button", { name: exactly("de", "session.updateNow") }).click(),
  ]);
  expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting === null))
    .toBe(true);
  await expect(prompt).toHaveCount(0);
});
