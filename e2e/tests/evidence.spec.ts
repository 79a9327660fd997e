import { expect, test } from "@playwright/test";
import {
  alsoInEnglish,
  applyPreference,
  createTeam,
  createUser,
  expectAccessible,
  expectNoSidewaysScroll,
  markResuscitationPassed,
  openAs,
  text,
} from "./helpers";

/*
 * /evidence (issue 29): an administrator chooses a training and the day, sees who held a valid
 * certificate (with its code) and who did not, and downloads the PDF and the workbook. On the
 * phone in German with axe; each state also in English at 360 px (alsoInEnglish); the date picker
 * scanned open in the default and dark theme.
 */
const lang = "de";
test("the evidence at a date and its downloads @phone", async ({ page }) => {
  const { administrator, employee, facility } = await createTeam(page.request, ["administrator", "employee"]);
  const other = await createUser(page.request, { facility, name: "Otto" });
  // The demo's passive resuscitation training, passed by the employee (no content of its own:
  // a new common training would become every other test's employees' training too).
  const training = await markResuscitationPassed(page.request, administrator, employee);
  const { name } = training;

  await openAs(page, administrator, "/evidence", administrator.password);
  await expect(page.getByRole("heading", { level: 1, name: text(lang, "evidence.title") })).toBeVisible();

  // The training, chosen by keyboard.
  const trainings = page.getByRole("combobox", { name: text(lang, "evidence.trainings") });
  await trainings.focus();
  await page.keyboard.type(name.slice(0, 24));
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
  const card = page.getByTestId("evidence-training");
  await expect(card).toHaveCount(1);
  await expect(page.getByTestId("evidence-status")).toHaveText(`${name}: 1/2`);
  await expect(card.getByTestId("evidence-rate")).toHaveText(
    text(lang, "evidence.rate", { held: 1, required: 2, percent: 50 }),
  );
  const held = card.getByRole("row", { name: new RegExp(employee.surname) });
  await expect(held).toContainText(/[A-Z0-9]{4}/);
  const missing = card.getByRole("row", { name: new RegExp(other.surname) });
  await expect(missing).toContainText(text(lang, "evidence.missing"));
  // From which day the history is exact: a day DD.MM.YYYY in the sentence.
  const [before, after] = text(lang, "evidence.exactFrom", { date: "\u0000" }).split("\u0000") as [string, string];
  await expect(page.getByTestId("evidence-exact")).toContainText(before);
  await expect(page.getByTestId("evidence-exact")).toContainText(after);
  await expectAccessible(page, `/evidence (${lang})`);
  await expectNoSidewaysScroll(page, `/evidence (${lang})`);
  await alsoInEnglish(page, "/evidence", async (en) => {
    await expect(page.getByRole("heading", { level: 1, name: en("evidence.title") })).toBeVisible();
    await expect(card.getByTestId("evidence-rate")).toHaveText(
      en("evidence.rate", { held: 1, required: 2, percent: 50 }),
    );
    await expect(missing).toContainText(en("evidence.missing"));
  });

  // The day: the app's date picker, in the reader's language, scanned open in both themes.
  const date = page.getByTestId("evidence-date");
  await date.focus();
  await page.keyboard.press("Enter");
  const picker = page.getByRole("dialog");
  await expect(picker.getByRole("columnheader", { name: "Mo" })).toBeVisible();
  await expectAccessible(page, `/evidence date picker open (${lang})`);
  await applyPreference(page, "theme", "dark");
  await expectAccessible(page, `/evidence date picker open, dark (${lang})`);
  await alsoInEnglish(page, "/evidence date picker open", () => expect(picker).toBeVisible());
  await page.keyboard.press("Escape");
  await expect(picker).toHaveCount(0);
  await expect(date).toHaveText(/^\d{2}\.\d{2}\.\d{4}$/);

  // The downloads carry the choice and the session's token.
  for (const [format, type] of [
    ["pdf", "application/pdf"],
    ["xlsx", "spreadsheetml"],
  ] as const) {
    const href = await page.getByTestId(`evidence-${format}`).getAttribute("href");
    expect(href).toContain(`format=${format}`);
    expect(href).toContain(`trainings=${training.id}`);
    const file = await page.request.get(href ?? "");
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toContain(type);
    expect((await file.body()).length).toBeGreaterThan(1000);
  }
});
