import { spawnSync } from "node:child_process";
import { expect, type Page, test } from "@playwright/test";
import {
  alsoInEnglish,
  applyPreference,
  createTeam,
  expectAccessible,
  expectNoSidewaysScroll,
  openAs,
  text,
} from "./helpers";

/** The entries of a downloaded ZIP and one entry's text, read with unzip. */
async function readDownload(page: Page, start: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent("download"), start()]);
  const file = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const list = spawnSync("unzip", ["-Z1", file], { encoding: "utf8" });
  expect(list.status, list.stderr).toBe(0);
  return {
    filename: download.suggestedFilename(),
    names: list.stdout.split("\n").filter(Boolean),
    text: (name: string) => spawnSync("unzip", ["-p", file, name], { encoding: "utf8" }).stdout,
  };
}

/*
 * My data on /account (issue 28), on the phone: in German with axe on every state, each state also
 * in English (alsoInEnglish); the summary in the ZIP is in the language the person has when they
 * download it, so it is downloaded in both.
 */
test("my data on /account: the ZIP download and the erasure request @phone", async ({ page }) => {
  const t = (key: string, values: Record<string, string | number> = {}) => text("de", key, values);
  const { employee } = await createTeam(page.request, ["employee"]);
  await openAs(page, employee, "/account", employee.password);
  const panel = page.getByTestId("privacy-panel");
  await expect(panel.getByRole("heading", { name: t("privacy.title") })).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await expectAccessible(page, "account with my data");
  await expectNoSidewaysScroll(page, "account with my data");

  // The download: a ZIP with the summary, every category and the person's own profile.
  const zip = await readDownload(page, () => panel.getByRole("link", { name: t("privacy.download") }).click());
  expect(zip.filename).toMatch(new RegExp(`^CareCampus-${employee.login}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  expect(zip.names).toEqual(expect.arrayContaining(["summary.html", "data/profile.json", "data/audit.json"]));
  expect(JSON.parse(zip.text("data/profile.json")).users[0].login).toBe(employee.login);
  expect(zip.text("summary.html")).toContain('<html lang="de">');
  await alsoInEnglish(page, "account with my data", async (en) => {
    const link = panel.getByRole("link", { name: en("privacy.download") });
    await expect(panel.getByRole("heading", { name: en("privacy.title") })).toBeVisible();
    const english = await readDownload(page, () => link.click());
    expect(english.text("summary.html")).toContain('<html lang="en">');
  });

  // The erasure request: a confirmation, then the answer in plain words, with the focus on it.
  await panel.getByRole("button", { name: t("privacy.request") }).click();
  const dialog = page.getByRole("dialog", { name: t("privacy.confirmTitle") });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(t("privacy.confirmText"));
  await expectAccessible(page, "erasure dialog");
  await applyPreference(page, "theme", "dark");
  await expect(dialog).toBeVisible();
  await expectAccessible(page, "erasure dialog, dark");
  await alsoInEnglish(page, "erasure dialog", (en) =>
    expect(page.getByRole("dialog", { name: en("privacy.confirmTitle") })).toContainText(en("privacy.confirmText")),
  );
  // By keyboard: the confirm button, then Enter.
  const confirm = dialog.getByRole("button", { name: t("privacy.confirm") });
  await confirm.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  const answer = page.getByTestId("erasure-answer");
  await expect(answer).toBeFocused();
  await expect(answer).toContainText(t("privacy.answer.erasedNow"));
  await expect(answer).toContainText(t("privacy.part.preferences"));
  await expect(answer).toContainText(t("privacy.answer.groundEmployment"));
  await expect(answer).toContainText(t("privacy.answer.untilLeaving", { years: 5 }));
  await expectAccessible(page, "erasure answer, dark");
  await expectNoSidewaysScroll(page, "erasure answer");
  await alsoInEnglish(page, "erasure answer", async (en) => {
    await expect(answer).toContainText(en("privacy.answer.erasedNow"));
    await expect(answer).toContainText(en("privacy.answer.untilLeaving", { years: 5 }));
  });
});

test("staff download a person's data from the user card", async ({ page }) => {
  const { administrator, employee } = await createTeam(page.request, ["administrator", "employee"]);
  await openAs(page, administrator, "/users", administrator.password);
  await page.getByLabel(text("de", "users.search")).fill(employee.login);
  const card = page.getByTestId("user-card").filter({ hasText: employee.login });
  await card.getByRole("button", { name: new RegExp(employee.surname) }).click();
  const link = card.getByRole("link", { name: text("de", "privacy.staffDownload") });
  await expect(link).toHaveAccessibleName(
    text("de", "privacy.staffDownloadLabel", { name: `${employee.name} ${employee.surname}` }),
  );
  await expectAccessible(page, "user card with the data download");
  const zip = await readDownload(page, () => link.click());
  expect(JSON.parse(zip.text("data/profile.json")).users[0].login).toBe(employee.login);
});
