import { expect, test } from "@playwright/test";
import { alsoInEnglish, createTeam, createUser, expectNoSidewaysScroll, openAs, unique } from "./helpers";

/*
 * An administrator assigns trainings and additional qualifications on the user form; the employee
 * learns only those. Once, in German at phone size; the saved form is shown in English (360 px) in place by alsoInEnglish, where a second qualification is added and the form
 * saved again, so the English toasts show too.
 */

const TEXT = {
  de: {
    none: "Keine",
    save: "Speichern",
    saved: "Benutzer geändert",
    newExtra: "Neue Zusatzqualifikation",
    addExtra: "Zusatzqualifikation hinzufügen",
    extraAdded: "Zusatzqualifikation hinzugefügt",
    // Of every training in the catalogue (other tests may add common ones).
    count: /^3 von \d+ Schulungen$/,
    expandHygiene: "Hygiene und Infektionsschutz aufklappen",
  },
  en: {
    none: "None",
    save: "Save",
    saved: "User changed",
    newExtra: "New additional qualification",
    addExtra: "Add additional qualification",
    extraAdded: "Additional qualification added",
    count: /^3 of \d+ trainings$/,
    expandHygiene: "Expand Hygiene und Infektionsschutz",
  },
} as const;

test("an administrator assigns trainings and additional qualifications; the employee sees only those @phone", async ({
  page,
}) => {
  const text = TEXT.de;
  const suffix = unique();
  const { facility, administrator } = await createTeam(page.request, ["administrator"]);
  const employee = await createUser(page.request, { facility, name: "Mara", surname: `Matrix ${suffix}` });
  await openAs(page, administrator, `/edituser/${employee.id}`);
  const tree = page.getByTestId("training-selection");
  const topic = (name: string) => tree.getByTestId("selection-topic").filter({ hasText: name });
  // A new user is assigned every training.
  await expect(topic("Brandschutz")).toHaveAttribute("data-state", "all");
  await tree.getByRole("button", { name: text.none, exact: true }).click();
  await expect(topic("Brandschutz")).toHaveAttribute("data-state", "none");
  // Topic box: all its trainings; one training of another topic: that topic is 'some'.
  await topic("Brandschutz").getByRole("checkbox", { name: "Brandschutz" }).check();
  await expect(topic("Brandschutz")).toHaveAttribute("data-state", "all");
  await tree.getByRole("button", { name: text.expandHygiene }).click();
  await tree.getByRole("checkbox", { name: "Händehygiene" }).check();
  await expect(topic("Hygiene und Infektionsschutz")).toHaveAttribute("data-state", "some");
  await expect(tree.getByText(text.count)).toBeVisible();

  await page.getByLabel(text.newExtra).fill(`Praxisanleitung ${suffix}`);
  await page.getByRole("button", { name: text.addExtra }).click();
  await expect(page.getByText(text.extraAdded)).toBeVisible();
  await page.getByRole("button", { name: text.save, exact: true }).click();
  await expect(page.getByText(text.saved)).toBeVisible();

  // Saved: the form shows it again.
  await page.goto(`/edituser/${employee.id}`);
  await expect(topic("Hygiene und Infektionsschutz")).toHaveAttribute("data-state", "some");
  await expect(topic("Erste Hilfe und Notfall")).toHaveAttribute("data-state", "none");
  await expect(page.getByTestId("additional-qualifications").locator("..")).toContainText(`Praxisanleitung ${suffix}`);

  // The same form in English, where a second qualification is added and the form saved again.
  await alsoInEnglish(page, "the user form, saved, then the user list", async () => {
    const en = TEXT.en;
    await expect(tree.getByRole("button", { name: en.none, exact: true })).toBeVisible();
    await expect(tree.getByRole("button", { name: en.expandHygiene })).toBeVisible();
    await expect(tree.getByText(en.count)).toBeVisible();
    await page.getByLabel(en.newExtra).fill(`Hygienebeauftragte ${suffix}`);
    await page.getByRole("button", { name: en.addExtra }).click();
    await expect(page.getByText(en.extraAdded)).toBeVisible();
    await expectNoSidewaysScroll(page, "the user form (en, dark)");
    await page.getByRole("button", { name: en.save, exact: true }).click();
    await expect(page.getByText(en.saved)).toBeVisible();
  });

  // The employee learns exactly the assigned trainings.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await openAs(page, employee, "/");
  // The topic cards (the 'due now' card above them links trainings, not topics).
  const topics = page.locator('a[href^="/topic/"]:not([href*="/training/"])');
  await expect(topics).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Brandschutz", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Hygiene und Infektionsschutz" }).click();
  await expect(page.getByRole("link", { name: "Händehygiene" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Lebensmittelhygiene/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /Multiresistente Erreger/ })).toHaveCount(0);
});
