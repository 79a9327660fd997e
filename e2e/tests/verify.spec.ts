import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { createTeam, expectAccessible, expectNoSidewaysScroll, loginWith, TEST_PASSWORD, text } from "./helpers";

/*
 * The public verification page (issue 29): an inspector scans the QR code of a fresh certificate
 * with a phone and sees its status without logging in, in the phone's language, in the light
 * and the dark theme. The page is server-rendered: no script runs in it.
 */

/** A fresh certificate: the in-person resuscitation training marked passed; the address its PDF's QR code holds. */
async function freshCertificate(browser: Browser): Promise<{ address: string; holder: string }> {
  const context = await browser.newContext();
  const request = context.request;
  const { administrator, employee } = await createTeam(request, ["administrator", "employee"]);
  const admin = { authorization: `Bearer ${(await loginWith(request, administrator)).token}` };
  const catalogue = (await (await request.get("/api/filter/list/topics", { headers: admin })).json()) as {
    id: number;
    trainings: { id: number; name: string }[];
  }[];
  const topic = catalogue.find((tp) => tp.trainings.some((tr) => tr.name.startsWith("Reanimationstraining")));
  const training = topic?.trainings.find((tr) => tr.name.startsWith("Reanimationstraining"));
  const marked = await request.post(`/api/progress/admin/users/${employee.id}/passivetraining`, {
    headers: admin,
    data: { topicID: topic?.id, trainingID: training?.id },
  });
  expect(marked.status(), await marked.text()).toBe(200);
  // The holder downloads the PDF; the test reads its QR code as a phone's camera would.
  const { token } = await loginWith(request, { login: employee.login, password: TEST_PASSWORD });
  const detail = (await (
    await request.get(`/api/progress/topics/${topic?.id}/trainings`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { trainings: { id: number; certificate: { id: number } | null }[] };
  const certificate = detail.trainings.find((tr) => tr.id === training?.id)?.certificate;
  expect(certificate).toBeTruthy();
  const pdf = await request.get(`/api/progress/export/certificate?id=${certificate?.id}&token=${token}`);
  expect(pdf.status()).toBe(200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-verify-e2e-"));
  fs.writeFileSync(path.join(dir, "c.pdf"), await pdf.body());
  execFileSync("pdftoppm", ["-r", "200", "-png", "-singlefile", path.join(dir, "c.pdf"), path.join(dir, "page")]);
  const address = execFileSync("zbarimg", ["--quiet", "--raw", path.join(dir, "page.png")], {
    encoding: "utf8",
  }).trim();
  fs.rmSync(dir, { recursive: true, force: true });
  await context.close();
  return { address, holder: `${employee.name} ${employee.surname}` };
}

/** The page in the light and the dark theme: axe in each, a screenshot of each. */
async function scanBothThemes(page: Page, where: string, shot: string): Promise<void> {
  await page.emulateMedia({ colorScheme: "light" });
  await expectAccessible(page, `${where}, light`);
  await page.screenshot({ path: `/tmp/verify-${shot}-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page, `${where}, dark`);
  await page.screenshot({ path: `/tmp/verify-${shot}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
}

test("an inspector's phone opens a fresh certificate's QR address without logging in, German and English @phone", async ({
  browser,
}) => {
  const { address, holder } = await freshCertificate(browser);
  const url = new URL(address);
  expect(url.pathname).toMatch(/^\/v\/[0-9A-HJKMNP-TV-Z]{17}$/);

  for (const lang of ["de", "en"] as const) {
    const t = (key: string, values: Record<string, string> = {}) => text(lang, `verify.${key}`, values);
    // A phone of its own, 360 px wide, not logged in, in its language (Accept-Language).
    const context = await browser.newContext({
      locale: lang === "de" ? "de-DE" : "en-GB",
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(url.pathname);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await expect(page.getByRole("heading", { level: 2, name: t("status.valid") })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: holder })).toBeVisible();
    await expect(page.getByText(t("proves"))).toBeVisible();
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    await expectNoSidewaysScroll(page, `verification page (${lang})`);
    await scanBothThemes(page, `verification page (${lang})`, `${lang}-phone`);

    // The form below, by keyboard: a code typed with a slip gives a readable 'unknown', the field keeps it.
    const field = page.getByRole("textbox", { name: t("form.label") });
    await field.focus();
    await page.keyboard.type("abcd efgh jkmn pqrs t");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 2, name: t("status.unknown") })).toBeVisible();
    await expect(page.getByRole("textbox", { name: t("form.label") })).toHaveValue("abcd efgh jkmn pqrs t");
    await expectNoSidewaysScroll(page, `unknown code (${lang})`);
    await scanBothThemes(page, `unknown code (${lang})`, `${lang}-unknown`);

    if (lang === "en") {
      // The same page on a desktop screen, for the eye.
      await page.goto(url.pathname);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: "/tmp/verify-en-desktop.png", fullPage: true });
    }
    await context.close();
  }
});
