import { expect, test } from "@playwright/test";
import {
  applyPreference,
  createFacility,
  createTeam,
  createUser,
  expectAccessible,
  expectNoSidewaysScroll,
  expectNothingCutOff,
  openAs,
  setLanguage,
  unique,
} from "./helpers";

test("a supervisor switches list and matrix, filters by topic and marks a passive training; the xlsx is not theirs @phone", async ({
  page,
}) => {
  const surname = `Passiv${unique()}`;
  const { facility, supervisor } = await createTeam(page.request, ["supervisor"]);
  await createUser(page.request, { facility, name: "Paula", surname });
  // Colleagues enough that the matrix is wider than a phone.
  for (const name of ["Ben", "Cem", "Dora", "Emil"])
    await createUser(page.request, { facility, name, surname: unique() });
  await openAs(page, supervisor, "/progress");
  await expect(page.getByRole("heading", { name: "Fortschrittsübersicht" })).toBeVisible();
  await expect(page.getByTestId("legend")).toContainText("Kein gültiges Zertifikat");
  // Status list: the first topic; a chip switches the topic.
  await expect(page.getByTestId("training-status").first()).toContainText("Händehygiene");
  await page.getByTestId("topic-chips").getByText("Erste Hilfe und Notfall").click();
  const course = page.getByTestId("training-status").filter({ hasText: "Reanimationstraining" });
  await expect(course).toBeVisible();
  const red = course.locator('[data-testid="status-group"][data-colour="red"]');
  await red.getByRole("button").click();
  await expect(red).toContainText(`${surname}, Paula`);
  await expect(page.getByTestId("coverage-chart")).toContainText("Reanimationstraining");

  // Matrix: the topic stays; the passive toggle marks the course passed after confirming.
  await page.getByText("Matrix", { exact: true }).click();
  await expect(page.getByRole("combobox", { name: "Thema" })).toHaveValue("Erste Hilfe und Notfall");
  const matrix = page.getByTestId("progress-matrix");
  // Six learners: the matrix scrolls inside its own region, which the keyboard reaches; the page
  // itself does not scroll sideways (the cells' hidden texts once made it).
  await expect(matrix.getByRole("columnheader").nth(5)).toBeAttached();
  await expectNoSidewaysScroll(page, "progress matrix");
  await expectAccessible(page, "progress matrix, wider than the phone");
  await page.getByLabel("Namen filtern").fill(surname);
  await expect(matrix.getByRole("columnheader", { name: `${surname}, Paula` })).toBeVisible();
  const row = matrix.getByRole("row").filter({ hasText: "Reanimationstraining" });
  await expect(row.getByTestId("matrix-cell")).toHaveAttribute("data-colour", "red");
  await row.getByRole("button", { name: `Als bestanden markieren: Paula ${surname}` }).click();
  const dialog = page.getByRole("dialog", { name: "Als bestanden markieren" });
  await expect(dialog).toContainText(`Paula ${surname}`);
  await dialog.getByRole("button", { name: "Bestanden" }).click();
  await expect(page.getByText("Schulung als bestanden eingetragen")).toBeVisible();
  await expect(row.getByTestId("matrix-cell")).toHaveAttribute("data-colour", "green");
  const nextYear = new Date();
  nextYear.setFullYear(nextYear.getFullYear() + 1);
  await expect(row.getByTestId("matrix-cell")).toContainText(String(nextYear.getFullYear()));

  // The xlsx export is the superusers' and Super-Admins' (spec §6): not offered to a supervisor.
  await expect(page.getByTestId("xlsx-download")).toHaveCount(0);
});

test("a content manager filters the overview by facility, in English", async ({ page }) => {
  const { contentmanager } = await createTeam(page.request, ["contentmanager"]);
  const [first, second] = [await createFacility(page.request), await createFacility(page.request)];
  const tag = unique();
  await createUser(page.request, { facility: first, name: "Emma", surname: `Müller ${tag}` });
  await createUser(page.request, { facility: second, name: "Jan", surname: `Nowak ${tag}` });
  await setLanguage(page.request, contentmanager, "en");
  await openAs(page, contentmanager, "/progress");
  await expect(page.getByRole("heading", { name: "Progress overview" })).toBeVisible();
  // Across facilities, the share per training and facility: readable in the dark theme too, its
  // headers the trainings' whole names.
  const coverage = page.getByTestId("facility-coverage");
  await expect(coverage).toBeVisible();
  const firstTraining = (await page.getByTestId("coverage-chart").locator("p").first().textContent()) ?? "";
  await expect(coverage.getByRole("columnheader", { name: firstTraining, exact: true })).toBeVisible();
  await applyPreference(page, "theme", "dark");
  await expectAccessible(page, "/progress with the facility coverage, dark theme");
  await expectNothingCutOff(page, "/progress with the facility coverage");
  await applyPreference(page, "theme", "carely");
  await page.getByText("Matrix", { exact: true }).click();
  const matrix = page.getByTestId("progress-matrix");
  // All facilities: learners of both (the matrix pages through all; the filter finds this test's).
  await page.getByLabel("Filter names").fill(tag);
  await expect(matrix.getByRole("columnheader", { name: `Müller ${tag}, Emma` })).toBeVisible();
  await expect(matrix.getByRole("columnheader", { name: `Nowak ${tag}, Jan` })).toBeVisible();
  const facility = page.getByRole("combobox", { name: "Facility" });
  await facility.click();
  await page.getByRole("option", { name: second.name }).click();
  await expect(matrix.getByRole("columnheader", { name: `Müller ${tag}, Emma` })).toHaveCount(0);
  await expect(matrix.getByRole("columnheader", { name: `Nowak ${tag}, Jan` })).toBeVisible();
  await expect(page.getByTestId("xlsx-download")).toHaveAttribute(
    "href",
    new RegExp(`facilityName=${encodeURIComponent(second.name)}`),
  );
  // The download is a real workbook with the facility and today's date in its name.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("xlsx-download").click()]);
  const slug = second.name.replaceAll(" ", "-");
  expect(download.suggestedFilename()).toMatch(new RegExp(`^Schulungsstand_${slug}_\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
  const bytes = await (await download.createReadStream()).toArray();
  expect(Buffer.concat(bytes).subarray(0, 2).toString()).toBe("PK");
  await page.getByText("Status list").click();
  await expect(page.getByTestId("facility-coverage")).toHaveCount(0);
});
