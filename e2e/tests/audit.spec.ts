import fs from "node:fs";
import { expect, test } from "@playwright/test";
import {
  alsoInEnglish,
  applyPreference,
  callApi,
  createTeam,
  expectAccessible,
  expectNoSidewaysScroll,
  openAs,
  text,
} from "./helpers";

/** A kind's name: its key holds a dot (audit.kind["user.updated"]), which `text` would take for a level. */
function kindName(lang: string, kind: string): string {
  const file = new URL(`../../apps/web/src/i18n/locales/${lang}.json`, import.meta.url);
  return (
    (JSON.parse(fs.readFileSync(file, "utf8")) as { audit: { kind: Record<string, string> } }).audit.kind[kind] ?? kind
  );
}

/*
 * /audit (issue 28): an administrator reads their facility's trail, filters it by kind and by
 * person; the superuser sees the chain's state. At phone size in German with axe; each state also
 * in English at 360 px (alsoInEnglish).
 */
const lang = "de";
test("the audit trail with a filter @phone", async ({ page }) => {
  const { administrator, employee } = await createTeam(page.request, ["administrator", "employee"]);
  // Two changes the administrator makes: a new surname and a password.
  await callApi(page.request, administrator, "PATCH", `/auth/admin/users/${employee.id}`, {
    surname: `${employee.surname} Neu`,
  });
  await callApi(page.request, administrator, "PATCH", `/auth/admin/users/${employee.id}`, {
    password: "Anders-456!",
  });

  await openAs(page, administrator, "/audit", administrator.password);
  await expect(page.getByRole("heading", { level: 1, name: text(lang, "audit.title") })).toBeVisible();
  // Their facility's entries only: the facility, the two people created for it, the two changes.
  await expect(page.getByTestId("audit-total")).toHaveText(text(lang, "audit.total", { count: 5 }));
  await expect(page.getByTestId("audit-chain")).toHaveCount(0);
  await alsoInEnglish(page, "/audit", async (en) => {
    await expect(page.getByRole("heading", { level: 1, name: en("audit.title") })).toBeVisible();
    await expect(page.getByTestId("audit-total")).toHaveText(en("audit.total", { count: 5 }));
  });

  // The person filter: a search over the people the administrator may see, scanned with its
  // list open in the default theme and in the dark one.
  const person = page.getByRole("combobox", { name: text(lang, "audit.person") });
  await person.fill(employee.surname.split(" ")[1] ?? employee.surname);
  const option = page.getByRole("option", { name: new RegExp(employee.login) });
  await expect(option).toBeVisible();
  await expectAccessible(page, `/audit person search open (${lang})`);
  await applyPreference(page, "theme", "dark");
  await expectAccessible(page, `/audit person search open, dark (${lang})`);
  await alsoInEnglish(page, "/audit person search open", () => expect(option).toBeVisible());
  await option.click();
  // The employee: created, renamed, a new password.
  await expect(page.getByTestId("audit-total")).toHaveText(text(lang, "audit.total", { count: 3 }));

  // The kind filter: a native select, by keyboard.
  const kind = page.getByRole("combobox", { name: text(lang, "audit.kindLabel") });
  await kind.focus();
  await kind.selectOption({ label: kindName(lang, "user.updated") });
  await expect(page.getByTestId("audit-total")).toHaveText(text(lang, "audit.total", { count: 1 }));
  const entry = page.getByTestId("audit-entry");
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(kindName(lang, "user.updated"));
  await expect(entry).toContainText(`${employee.name} ${employee.surname} Neu`);
  await expect(entry).toContainText(`${employee.surname} → ${employee.surname} Neu`);
  await expect(entry).toContainText(
    text(lang, "audit.by", {
      name: `${administrator.name} ${administrator.surname}`,
      role: text(lang, "roles.administrator"),
    }),
  );
  await expect(entry).not.toContainText("Anders-456!");
  await expectAccessible(page, `/audit filtered, dark (${lang})`);
  await alsoInEnglish(page, "/audit filtered", async (en) => {
    await expect(entry).toContainText(kindName("en", "user.updated"));
    await expect(entry).toContainText(
      en("audit.by", { name: `${administrator.name} ${administrator.surname}`, role: en("roles.administrator") }),
    );
  });

  // The CSV link carries the filter.
  const href = await page.getByTestId("audit-csv").getAttribute("href");
  expect(href).toContain("format=csv");
  expect(href).toContain("kind=user.updated");
  expect(href).toContain(`user=${employee.id}`);
  const csv = await page.request.get(href ?? "");
  expect(csv.status()).toBe(200);
  expect((await csv.text()).trim().split("\r\n")).toHaveLength(2);

  await expectNoSidewaysScroll(page, `/audit (${lang})`);
});

test("the superuser sees the chain's state and every facility; the date picker is the app's", async ({ page }) => {
  await openAs(page, "superchris", "/audit");
  await expect(page.getByTestId("audit-chain")).toContainText(/Die Kette ist unversehrt/);
  await expect(page.getByTestId("audit-entry").first()).toBeVisible();
  await expectAccessible(page, "/audit as superuser");

  // The start of the range: the calendar's picker, German and DD.MM.YYYY whatever the browser's
  // language; scanned open in the default theme and in the dark one.
  const from = page.getByTestId("audit-from");
  await from.focus();
  await page.keyboard.press("Enter");
  const picker = page.getByRole("dialog");
  await expect(picker.getByRole("columnheader", { name: "Mo" })).toBeVisible();
  // The 15th of the month shown (the first rows may hold the last days of the month before).
  const day = picker.getByRole("button", { name: /^15 / });
  await expectAccessible(page, "/audit date picker open");
  await applyPreference(page, "theme", "dark");
  await expectAccessible(page, "/audit date picker open, dark");
  await day.click();
  await expect(from).toHaveText(/^15\.\d{2}\.\d{4}$/);
  expect(await page.getByTestId("audit-csv").getAttribute("href")).toMatch(/from=\d{4}-\d{2}-15/);
  // The demo superuser's theme as other specs expect it.
  await applyPreference(page, "theme", "carely");
});
