import { expect, type Page, test } from "@playwright/test";
import {
  alsoInEnglish,
  createTeam,
  expectAccessible,
  expectNoSidewaysScroll,
  loginWith,
  markResuscitationPassed,
  openAs,
  text,
} from "./helpers";

/*
 * Leavers are archived, not erased (issue 28): an administrator deletes an employee from /users,
 * finds them under "Former" with the day they left and their certificates, and restores them.
 * On the phone, in German in the default theme with axe on every state, the dialogs open; each
 * state also in English at 360 px (alsoInEnglish).
 */

/** Today as the app writes dates (DD.MM.YYYY in the installation's time zone, Europe/Berlin). */
const today = () =>
  new Intl.DateTimeFormat("de-DE", { timeZone: "Europe/Berlin", day: "2-digit", month: "2-digit", year: "numeric" })
    .format(new Date())
    .replace(/\//g, ".");

async function scan(page: Page, where: string): Promise<void> {
  await expectAccessible(page, where);
}

test("archive an employee, find them under former employees with their certificates, restore them @phone", async ({
  page,
}) => {
  const t = (key: string, values: Record<string, string | number> = {}) => text("de", key, values);
  const { administrator, employee } = await createTeam(page.request, ["administrator", "employee"]);
  const fullName = `${employee.name} ${employee.surname}`;
  // A certificate to keep: the in-person resuscitation training marked passed.
  await markResuscitationPassed(page.request, administrator, employee);
  const { token } = await loginWith(page.request, administrator);
  const headers = { authorization: `Bearer ${token}` };

  await openAs(page, administrator, "/users");
  const search = page.getByRole("textbox", { name: t("users.search") });
  const card = page.getByTestId("user-card").filter({ hasText: fullName });
  await card.getByRole("button", { name: new RegExp(fullName) }).click();
  await card.getByRole("button", { name: t("users.delete") }).click();

  // The confirmation says what happens now: archived, no login, records kept, can be restored.
  const archive = page.getByRole("dialog", { name: t("former.archiveTitle") });
  await expect(archive).toContainText(t("former.archiveConfirm", { name: fullName }));
  await scan(page, "archive dialog");
  await alsoInEnglish(page, "archive dialog", (en) =>
    expect(page.getByRole("dialog", { name: en("former.archiveTitle") })).toContainText(
      en("former.archiveConfirm", { name: fullName }),
    ),
  );
  await archive.getByRole("button", { name: t("users.delete") }).click();
  await expect(page.getByText(t("former.archived")).first()).toBeVisible();
  await expect(archive).toBeHidden();
  await expect(card).toHaveCount(0);
  // The card left the list; the search takes the focus.
  await expect(search).toBeFocused();
  // They can no longer log in, exactly like an unknown login.
  const refused = await page.request.post("/api/auth/login", {
    data: { login: employee.login, password: employee.password },
  });
  expect(refused.status()).toBe(401);

  // Former employees: the day they left, and their certificates with downloads.
  await page.getByText(t("former.former"), { exact: true }).click();
  const former = page.getByTestId("former-card").filter({ hasText: fullName });
  await expect(former).toContainText(t("former.leftOn", { date: today() }));
  await former.getByRole("button", { name: new RegExp(fullName) }).click();
  const certificates = former.getByTestId("former-certificates");
  await expect(certificates).toContainText("Reanimationstraining");
  const download = certificates.getByRole("link", { name: new RegExp(`^${t("certificateHistory.download")}`) });
  await expect(download).toHaveCount(1);
  await scan(page, "former employees");
  await expectNoSidewaysScroll(page, "former employees");
  await alsoInEnglish(page, "former employees", async (en) => {
    await expect(former).toContainText(en("former.leftOn", { date: today() }));
    await expect(former.getByRole("button", { name: en("former.restore") })).toBeVisible();
  });
  const progress = (await (await page.request.get(`/api/progress/admin/users/${employee.id}`, { headers })).json()) as {
    training_progress: { certificate: { id: number } | null }[];
  };
  const certificate = progress.training_progress.find((tp) => tp.certificate)?.certificate;
  const pdf = await page.request.get(`/api/progress/export/certificate?id=${certificate?.id}&token=${token}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toContain("application/pdf");

  // Restore: same login and password, back among the current members.
  await former.getByRole("button", { name: t("former.restore") }).click();
  const restore = page.getByRole("dialog", { name: t("former.restoreTitle") });
  await expect(restore).toContainText(t("former.restoreConfirm", { name: fullName }));
  await scan(page, "restore dialog");
  await alsoInEnglish(page, "restore dialog", (en) =>
    expect(page.getByRole("dialog", { name: en("former.restoreTitle") })).toContainText(
      en("former.restoreConfirm", { name: fullName }),
    ),
  );
  await restore.getByRole("button", { name: t("former.restore") }).click();
  await expect(page.getByText(t("former.restored")).first()).toBeVisible();
  await expect(former).toHaveCount(0);
  await expect(search).toBeFocused();
  await expect(page.getByText(t("former.none"))).toBeVisible();
  await page.getByText(t("former.current"), { exact: true }).click();
  await expect(card).toHaveCount(1);
  await loginWith(page.request, employee);
});
