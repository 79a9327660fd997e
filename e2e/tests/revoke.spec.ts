import { expect, test } from "@playwright/test";
import {
  alsoInEnglish,
  createTeam,
  expectAccessible,
  expectNoSidewaysScroll,
  markResuscitationPassed,
  openAs,
  text,
  transitionsDone,
} from "./helpers";

/*
 * Revocation (issue 29): staff revoke a certificate on the person's card with a reason; the card
 * and the holder's /profile show it revoked with the day and the reason. On the phone, in German
 * in the default theme with axe with the dialog open and after; each state also in English at
 * 360 px (alsoInEnglish).
 */

test("staff revoke a certificate on the user card; it shows revoked there and on the holder's profile @phone", async ({
  page,
}) => {
  const t = (key: string, values: Record<string, string | number> = {}) => text("de", key, values);
  const { administrator, employee } = await createTeam(page.request, ["administrator", "employee"]);
  const fullName = `${employee.name} ${employee.surname}`;
  // A certificate to revoke: the in-person resuscitation training marked passed (API set-up).
  const training = await markResuscitationPassed(page.request, administrator, employee);

  await openAs(page, administrator, "/users");
  const card = page.getByTestId("user-card").filter({ hasText: fullName });
  await card.getByRole("button", { name: new RegExp(fullName) }).click();
  const held = card.getByTestId("user-certificate").filter({ hasText: training.name });
  const revokeButton = held.getByRole("button", { name: new RegExp(t("revoke.button")) });
  await expect(revokeButton).toBeVisible();
  // The card's panel opens with a transition: a click while it runs may land beside the button.
  await transitionsDone(page);
  await revokeButton.click();

  const dialog = page.getByRole("dialog", { name: t("revoke.title") });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("radio", { name: t("revoke.reasons.obtained_improperly") }).check();
  await dialog.getByRole("textbox", { name: t("revoke.note") }).fill("Teilnahme nicht belegt");
  await expectAccessible(page, "revoke dialog");
  await expectNoSidewaysScroll(page, "revoke dialog");
  await alsoInEnglish(page, "revoke dialog", async (en) => {
    const english = page.getByRole("dialog", { name: en("revoke.title") });
    await expect(english.getByRole("radio", { name: en("revoke.reasons.obtained_improperly") })).toBeChecked();
    await expect(english.getByRole("button", { name: en("revoke.confirm") })).toBeVisible();
  });
  await dialog.getByRole("button", { name: t("revoke.confirm") }).click();

  await expect(dialog).toBeHidden();
  // Marked in the history with the reason in words; the training is due again; the focus is on it.
  const mark = held.getByTestId("revoked-mark");
  await expect(mark).toContainText(t("revoke.badge"));
  await expect(mark).toContainText(t("revoke.reasons.obtained_improperly"));
  await expect(held).toContainText(t("revoke.due"));
  await expect(held.getByTestId("earlier-certificate")).toBeFocused();
  await expect(held.getByRole("button", { name: new RegExp(t("revoke.button")) })).toHaveCount(0);
  await expectAccessible(page, "user card, revoked");
  await expectNoSidewaysScroll(page, "user card, revoked");
  await alsoInEnglish(page, "user card, revoked", async (en) => {
    await expect(mark).toContainText(en("revoke.badge"));
    await expect(mark).toContainText(en("revoke.reasons.obtained_improperly"));
    await expect(held).toContainText(en("revoke.due"));
  });

  // The holder: the certificate on /profile, marked revoked; the bell says so.
  await openAs(page, employee, "/profile");
  const mine = page.getByTestId("my-certificate").filter({ hasText: training.name });
  await expect(mine.getByTestId("revoked-mark")).toContainText(t("revoke.reasons.obtained_improperly"));
  await expect(mine).toContainText(t("revoke.due"));
  await expectAccessible(page, "profile, revoked");
  await expectNoSidewaysScroll(page, "profile, revoked");
  await alsoInEnglish(page, "profile, revoked", async (en) => {
    await expect(mine.getByTestId("revoked-mark")).toContainText(en("revoke.reasons.obtained_improperly"));
    await expect(mine).toContainText(en("revoke.due"));
  });
});
