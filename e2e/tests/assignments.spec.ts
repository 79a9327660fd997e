import { expect, test } from "@playwright/test";
import { createTeam, createUser, onPhone, openAs, setLanguage, unique } from "./helpers";

const TEXT = {
  de: {
    none: "Keine",
    save: "Speichern",
    saved: "Benutzer geändert",
    newExtra: "Neue Zusatzqualifikation",
    addExtra: "Zusatzqualifikation hinzufügen",
    extraAdded: "Zusatzqualifikation hinzugefügt",
    extras: "Zusatzqualifikationen",
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
    extras: "Additional qualifications",
    count: /^3 of \d+ trainings$/,
    expandHygiene: "Expand Hygiene und Infektionsschutz",
  },
} as const;

for (const lang of ["de", "en"] as const) {
  test(`an administrator assigns trainings and additional qualifications; the employee sees only those (${lang})${onPhone(lang)}`, async ({
    page,
  }) => {
    const text = TEXT[lang];
    const suffix = `${lang}${unique()}`;
    const { facility, administrator } = await createTeam(page.request, ["administrator"]);
    const employee = await createUser(page.request, { facility, name: "Mara", surname: `Matrix ${suffix}` });
    await setLanguage(page.request, administrator, lang);
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
    await expect(page.getByTestId("additional-qualifications").locator("..")).toContainText(
      `Praxisanleitung ${suffix}`,
    );

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
}
