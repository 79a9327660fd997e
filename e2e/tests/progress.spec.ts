import { expect, type Page, test } from "@playwright/test";
import { apiLogin, openAs, patchAs } from "./helpers";

async function createEmployee(page: Page, surname: string) {
  const { token } = await apiLogin(page, "admin");
  const res = await page.request.post("/api/auth/admin/users", {
    headers: { authorization: `Bearer ${token}` },
    data: { name: "Paula", surname, login: `paula.${surname.toLowerCase()}`, password: "Paula-1234!" },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { id: number };
}

async function deleteUser(page: Page, id: number) {
  const { token } = await apiLogin(page, "admin");
  await page.request.delete(`/api/auth/admin/users/${id}`, { headers: { authorization: `Bearer ${token}` } });
}

test("a supervisor switches list and matrix, filters by topic, marks a passive training and downloads the xlsx @phone", async ({
  page,
}) => {
  const surname = `Passiv${Date.now().toString(36)}`;
  const employee = await createEmployee(page, surname);
  try {
    await openAs(page, "supervisor", "/progress");
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
    await page.getByLabel("Namen filtern").fill(surname);
    const matrix = page.getByTestId("progress-matrix");
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

    // The download is a real workbook with the facility and today's date in its name.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("xlsx-download").click()]);
    expect(download.suggestedFilename()).toMatch(/^Schulungsstand_Haus-Sonnenhof_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const bytes = await (await download.createReadStream()).toArray();
    expect(Buffer.concat(bytes).subarray(0, 2).toString()).toBe("PK");
  } finally {
    await deleteUser(page, employee.id);
  }
});

test("a content manager filters the overview by facility, in English", async ({ page }) => {
  const { token, user } = await apiLogin(page, "content");
  await patchAs(page, token, `/api/preferences/${user.id}`, { property: "language", value: "en" });
  try {
    await openAs(page, "content", "/progress");
    await expect(page.getByRole("heading", { name: "Progress overview" })).toBeVisible();
    await page.getByText("Matrix", { exact: true }).click();
    const matrix = page.getByTestId("progress-matrix");
    // All facilities: learners of both demo facilities.
    await expect(matrix.getByRole("columnheader", { name: /Müller, Emma/ })).toBeVisible();
    const facility = page.getByRole("combobox", { name: "Facility" });
    await facility.click();
    await page.getByRole("option", { name: "Haus Lindenhof" }).click();
    await expect(matrix.getByRole("columnheader", { name: /Müller, Emma/ })).toHaveCount(0);
    await expect(page.getByTestId("xlsx-download")).toHaveAttribute("href", /facilityName=Haus%20Lindenhof/);
    await page.getByText("Status list").click();
    await expect(page.getByTestId("facility-coverage")).toHaveCount(0);
  } finally {
    const again = await apiLogin(page, "content");
    await patchAs(page, again.token, `/api/preferences/${user.id}`, { property: "language", value: "de" });
  }
});
