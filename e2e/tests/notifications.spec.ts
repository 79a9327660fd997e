import { expect, type Page, test } from "@playwright/test";
import { apiLogin, expectAccessible, openAs, patchAs } from "./helpers";

/**
 * The demo seed gives employee2 (Haus Lindenhof) a "Händehygiene" certificate that expires five
 * days after the server's start; the notification job's start-up run sends the 7-day notice to
 * employee2 and the facility summary to admin2. Opening a notice marks it read, so each demo
 * user's notice is opened once per server run.
 */
// Days are counted in the server's TIME_ZONE (default Europe/Berlin), not in this process's zone.
const [year, month, day] = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" })
  .format(new Date())
  .split("-")
  .map(Number) as [number, number, number];
const fiveDaysAhead = new Date(Date.UTC(year, month - 1, day + 5));
const pad = (n: number) => String(n).padStart(2, "0");
const inFiveDays = `${pad(fiveDaysAhead.getUTCDate())}.${pad(fiveDaysAhead.getUTCMonth() + 1)}.${fiveDaysAhead.getUTCFullYear()}`;
const isoInFiveDays = `${fiveDaysAhead.getUTCFullYear()}-${pad(fiveDaysAhead.getUTCMonth() + 1)}-${pad(fiveDaysAhead.getUTCDate())}`;

/**
 * The job runs shortly after the server starts: waits until the user's notice with `key` is
 * there, and returns the number of unread notifications (other specs may add their own).
 */
async function waitForNotice(page: Page, login: string, key: string): Promise<number> {
  const { token } = await apiLogin(page, login);
  let count = 0;
  await expect
    .poll(async () => {
      const res = await page.request.get("/api/notifications", { headers: { authorization: `Bearer ${token}` } });
      const list = (await res.json()) as { CustomMessage: string }[];
      count = list.length;
      return list.some((n) => (JSON.parse(n.CustomMessage) as { key?: string }).key === key);
    })
    .toBe(true);
  return count;
}

test("an employee sees the expiry notice (in English and German), opens it and lands on the training", async ({
  page,
}) => {
  const count = await waitForNotice(page, "employee2", "notifications.certificateExpires");
  const { token, user } = await apiLogin(page, "employee2");
  await patchAs(page, token, `/api/preferences/${user.id}`, { property: "language", value: "en" });
  try {
    await openAs(page, "employee2", "/");
    await expect(page.getByTestId("notification-count")).toHaveText(String(count));
    await page.getByRole("button", { name: `Notifications (${count})` }).click();
    const item = page.getByTestId("notification").filter({ hasText: "Händehygiene" });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(`Your certificate “Händehygiene” expires on ${inFiveDays}.`);
    await expect(item).toContainText("Expires within a week");
    // The list scanned where it opens.
    await expectAccessible(page, "the notification list, open");
    await page.keyboard.press("Escape");
    await expect(item).toBeHidden();
  } finally {
    // Tokens live 40 s on the test server: a fresh one for the clean-up.
    const again = await apiLogin(page, "employee2");
    await patchAs(page, again.token, `/api/preferences/${user.id}`, { property: "language", value: "de" });
  }

  await openAs(page, "employee2", "/");
  await expect(page.getByTestId("notification-count")).toHaveText(String(count));
  await page.getByRole("button", { name: `Benachrichtigungen (${count})` }).click();
  const item = page.getByTestId("notification").filter({ hasText: "Händehygiene" });
  await expect(item).toContainText(`Ihr Zertifikat „Händehygiene“ läuft am ${inFiveDays} ab.`);
  await expect(item).toContainText("Läuft innerhalb einer Woche ab");
  await expect(item).toHaveAttribute("data-colour", "orange");
  await item.click();

  await expect(page).toHaveURL(/\/topic\/\d+\/training\/\d+$/);
  await expect(page.getByRole("heading", { name: "Händehygiene", exact: true })).toBeVisible();
  // Read: gone from the bell, also after a reload.
  const left = `Benachrichtigungen (${count - 1})`;
  await expect(page.getByRole("button", { name: left })).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: left }).click();
  await expect(page.getByText(`Benachrichtigungen (${count - 1})`, { exact: true })).toBeVisible();
  await expect(page.getByTestId("notification").filter({ hasText: "Händehygiene" })).toHaveCount(0);
  if (count === 1) await expect(page.getByText("Keine neuen Benachrichtigungen")).toBeVisible();
});

test("the facility's administrator sees the summary and opens the progress overview", async ({ page }) => {
  const count = await waitForNotice(page, "admin2", "notifications.certificatesExpireSummary");
  // Other demo data may add certificates to the summary: its count and first date come from the server.
  const { token } = await apiLogin(page, "admin2");
  const list = (await (
    await page.request.get("/api/notifications", { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { CustomMessage: string }[];
  const summary = list
    .map((n) => JSON.parse(n.CustomMessage) as { key: string; values: Record<string, string> })
    .find((m) => m.key === "notifications.certificatesExpireSummary" && m.values.stage === "7");
  expect(summary?.values.facility).toBe("Haus Lindenhof");
  const [y, m, d] = (summary?.values.date ?? "").split("-");
  // employee2's certificate is among them: the first expires on that day or earlier.
  expect(`${y}-${m}-${d}` <= isoInFiveDays).toBe(true);

  await openAs(page, "admin2", "/");
  await expect(page.getByTestId("notification-count")).toHaveText(String(count));
  await page.getByRole("button", { name: `Benachrichtigungen (${count})` }).click();
  const item = page.getByTestId("notification").filter({ hasText: "in den nächsten 7 Tagen" });
  await expect(item).toHaveCount(1);
  const sentence = `Haus Lindenhof: ${summary?.values.count} Zertifikat(e) laufen in den nächsten 7 Tagen ab, das erste am ${d}.${m}.${y}.`;
  await expect(item.getByText(sentence, { exact: true })).toBeVisible();
  await expect(item).toContainText("Läuft innerhalb einer Woche ab");
  await expect(item).toHaveAttribute("data-colour", "orange");
  await item.click();
  await expect(page).toHaveURL(/\/progress$/);
  await expect(page.getByRole("button", { name: `Benachrichtigungen (${count - 1})` })).toBeVisible();
});
