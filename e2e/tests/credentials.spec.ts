import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import {
  alsoInEnglish,
  createTeam,
  expectAccessible,
  expectNoSidewaysScroll,
  markResuscitationPassed,
  openAs,
  setPreference,
  text,
} from "./helpers";

/*
 * Digital credentials (issue 29), on the installation server with VERIFIABLE_CREDENTIALS on: the
 * holder of a fresh certificate downloads its Open Badge on /profile; an inspector, not logged
 * in, goes from /v to /v/credential, uploads the file and reads "valid". The holder in German in
 * the installation's own theme with axe, /profile also in English (alsoInEnglish); the
 * inspector's server-rendered pages in German (axe in the light and the dark colour scheme) and
 * in English (its texts), each at 360 px without sideways scroll.
 */

/** The QM notice this installation shows after a login: answered already, as a returning user would have. */
const QM_COOKIE = "dont-show-carely-qm-msg-again";
const THEME = "ocean";

/** The server-rendered page in the light and the dark colour scheme: axe in each. */
async function scanBothSchemes(page: Page, where: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectAccessible(page, `${where}, ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** An inspector's phone, not logged in, in `lang` (Accept-Language), 360 px wide. */
async function inspectorPhone(browser: Browser, lang: "de" | "en") {
  return browser.newContext({
    locale: lang === "de" ? "de-DE" : "en-GB",
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
}

test("the holder downloads a fresh certificate's Open Badge on /profile; /v/credential finds it valid", async ({
  page,
  browser,
  baseURL,
}) => {
  const t = (key: string, values: Record<string, string | number> = {}) => text("de", key, values);
  const { administrator, employee } = await createTeam(page.request, ["administrator", "employee"]);
  const training = await markResuscitationPassed(page.request, administrator, employee);
  await setPreference(page.request, employee, "theme", THEME);
  await page.context().addCookies([{ name: QM_COOKIE, value: "true", url: baseURL as string }]);

  // The holder: the credential's link beside the certificate on /profile.
  await openAs(page, employee, "/profile");
  const mine = page.getByTestId("my-certificate").filter({ hasText: training.name });
  const link = mine.getByRole("link", { name: `${t("credentials.download")}: ${training.name}` });
  await expect(link).toBeVisible();
  await expect(link).toHaveText(t("credentials.download"));
  await expectAccessible(page, `profile with the credential link (de, ${THEME})`);
  await expectNoSidewaysScroll(page, "profile with the credential link (de)");
  await alsoInEnglish(page, "profile with the credential link", async (en) => {
    const english = mine.getByRole("link", { name: `${en("credentials.download")}: ${training.name}` });
    await expect(english).toHaveText(en("credentials.download"));
  });
  // By keyboard: the link takes the focus and Enter downloads the file.
  await link.focus();
  const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  // The address in the message, should the name be wrong: Chromium's "download" is what it calls a
  // file whose name it cannot write (an "ä" in the C locale: scripts/chromium.mjs CHROMIUM_ENV).
  expect(download.suggestedFilename(), `the download of ${download.url()}`).toMatch(/^Open-Badge-.*\.json$/);
  const file = await download.path();
  const credential = JSON.parse(fs.readFileSync(file, "utf8")) as { type: string[]; name: string };
  expect(credential.type).toContain("OpenBadgeCredential");
  expect(credential.name).toBe(training.name);

  // The inspector: /v leads to the check of a file; the file is uploaded and found valid. The
  // pages are the server's, in the language the phone asks for: German with axe, then English.
  for (const lang of ["de", "en"] as const) {
    const t = (key: string, values: Record<string, string | number> = {}) => text(lang, key, values);
    const scan = (where: string) => (lang === "de" ? scanBothSchemes(phone, where) : Promise.resolve());
    const inspector = await inspectorPhone(browser, lang);
    const phone = await inspector.newPage();
    await phone.goto("/v");
    await phone.getByRole("link", { name: t("verify.credentialLink") }).click();
    await expect(phone).toHaveURL(/\/v\/credential$/);
    await expect(phone.locator("html")).toHaveAttribute("lang", lang);
    await expect(phone.getByRole("heading", { level: 1, name: t("credentials.page.title") })).toBeVisible();
    await scan(`credential check, form (${lang})`);
    await expectNoSidewaysScroll(phone, `credential check, form (${lang})`);

    await phone.getByLabel(t("credentials.page.file")).setInputFiles(file);
    await phone.getByRole("button", { name: t("credentials.page.submit") }).click();
    const result = phone.getByRole("heading", { level: 2, name: t("credentials.page.valid") });
    await expect(result).toBeVisible();
    await expect(result).toHaveAttribute("data-valid", "true");
    // Each of the four checks named, each OK.
    for (const check of ["signature", "issuer", "validity", "status"]) {
      await expect(phone.getByRole("term").filter({ hasText: t(`credentials.page.check.${check}`) })).toHaveCount(1);
    }
    await expect(phone.getByRole("definition").filter({ hasText: t("credentials.page.outcome.ok") })).toHaveCount(4);
    await expect(phone.getByRole("definition").filter({ hasText: training.name })).toBeVisible();
    await scan(`credential check, valid (${lang})`);
    await expectNoSidewaysScroll(phone, `credential check, valid (${lang})`);
    await inspector.close();
  }
});
