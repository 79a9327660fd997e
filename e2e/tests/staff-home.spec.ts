import { expect, type Locator, type Page, test } from "@playwright/test";
import {
  alsoInEnglish,
  applyPreference,
  callApi,
  createTeam,
  createUser,
  demoPassiveCourse,
  expectAccessible,
  openAs,
  type TestUser,
  THEMES,
  unique,
} from "./helpers";

/*
 * The staff start page (issue 30): an administrator's and a Super-Admin's cards, "plan a date
 * for these N" opening the calendar's new-event dialog filled with the facility, topic, training
 * and exactly the people red or orange, and saving it; an event waiting for its attendance opens
 * on its attendance. The page is scanned with axe in each of the four themes.
 */

/** The Mantine Select labelled `label` in `scope`. */
const select = (scope: Page | Locator, label: string) =>
  scope
    .getByRole("textbox", { name: label })
    .or(scope.getByRole("combobox", { name: label }))
    .first();

/** The first row of the 'red or orange' card: its training, facility and how many people. */
async function firstDueRow(page: Page) {
  const rows = page.getByTestId("staff-due-row");
  const training = (await rows.first().getByRole("link").first().textContent()) ?? "";
  // A Super-Admin's rows also name their facility (facility · topic): one training has a row per facility.
  const whose = rows.first().getByText(/ · /);
  const place = (await whose.count()) > 0 ? await whose.textContent() : null;
  // That row from now on, wherever it moves: other tests running beside this one add trainings
  // (common content), in which these people are red too, and the list shows them as they come (a
  // click on "the first row" once planned another test's training).
  let row = rows.filter({ has: page.getByRole("link", { name: training, exact: true }) });
  if (place !== null) row = row.filter({ has: page.getByText(place, { exact: true }) });
  const plan = row.getByTestId("plan-date");
  const count = Number((await plan.textContent())?.match(/\d+/)?.[0]);
  return { row, plan, count, training };
}

/** The dialog saves, and the event stored for `facility` on today has `invitees` invitees. */
async function saveAndFind(page: Page, who: TestUser, facility: number, label: string, invitees: number) {
  const dialog = page.getByRole("dialog", { name: "Termin planen" });
  await dialog.getByLabel("Bezeichnung (optional)").fill(label);
  // All day: today's date is never in the past, whatever the hour of the test.
  await dialog.getByLabel("Ganztägig").check();
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByText("Termin gespeichert")).toBeVisible();
  await expect(dialog).toBeHidden();
  // Back on the calendar, the focus on its title.
  await expect(page.getByRole("heading", { name: "Schulungskalender" })).toBeFocused();
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(new Date());
  const next = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const events = (await callApi(
    page.request,
    who,
    "GET",
    `/calendar/events?start=${day}&end=${next}&facility=${facility}`,
  )) as { Label: string; InviteeCount: number; Facility: { id: number } }[];
  expect(events.find((e) => e.Label === label)).toMatchObject({ InviteeCount: invitees, Facility: { id: facility } });
}

test("an administrator's start page: who is red or orange, plan a date for them, an event waiting for attendance; axe in the four themes @phone", async ({
  page,
}) => {
  const team = await createTeam(page.request, ["administrator", "employee"]);
  await createUser(page.request, { facility: team.facility, name: "Otto" });
  const course = await demoPassiveCourse(page.request, team.administrator);
  // An in-person course held two days ago, its attendance not recorded.
  const past = new Date(Date.now() - 2 * 86_400_000);
  const label = `Kurs ${unique()}`;
  await callApi(page.request, team.administrator, "POST", "/calendar/events", {
    Title: `${team.facility.id}|${course.topic}|${course.id}|${label}`,
    Start: past.toISOString(),
    End: new Date(past.getTime() + 3_600_000).toISOString(),
    AllDay: false,
    Color: "#be123c",
    Invitees: [team.employee.id],
  });

  await openAs(page, team.administrator, "/", team.administrator.password);
  await expect(page.getByRole("heading", { name: `Willkommen, ${team.administrator.name}` })).toBeVisible();
  const due = page.getByTestId("staff-due");
  await expect(due.getByRole("heading", { name: "Jetzt rot oder orange" })).toBeVisible();
  // A new facility's two employees hold no certificate: every training is red for both.
  await expect(due.getByTestId("staff-due-row").first().getByText("Rot: 2")).toBeVisible();
  await expect(page.getByTestId("staff-attendance").getByText(label)).toBeVisible();
  await expect(page.getByTestId("staff-help").getByText("Keine offenen Hilfeanfragen.")).toBeVisible();
  // Nothing else on the start page is the learners': this account has no trainings of its own.
  await expect(page.getByTestId("no-training-access")).toBeVisible();
  for (const theme of THEMES) {
    await applyPreference(page, "theme", theme);
    await expectAccessible(page, `staff start page (${theme})`);
  }
  await applyPreference(page, "theme", "carely");
  await alsoInEnglish(page, "staff start page", async (t) => {
    await expect(page.getByRole("heading", { name: t("home.staff.due.title") })).toBeVisible();
    await expect(page.getByRole("button", { name: t("home.staff.plan", { count: 2 }) }).first()).toBeVisible();
  });

  // The event opens in the calendar on its attendance.
  await page.getByTestId("staff-attendance-row").filter({ hasText: label }).getByRole("button").click();
  await expect(page).toHaveURL(/\/calendar$/);
  const event = page.getByRole("dialog", { name: "Termin" });
  await expect(
    event.getByRole("checkbox", { name: `${team.employee.name} ${team.employee.surname}` }).last(),
  ).toBeVisible();
  await expect(event.getByRole("button", { name: "Anwesenheit speichern" })).toBeVisible();
  await event.getByRole("button", { name: "Abbrechen" }).click();

  // Back home: plan a date for the first training's red and orange people.
  await page.getByRole("link", { name: "Zurück zur Startseite" }).click();
  const first = await firstDueRow(page);
  expect(first.count).toBe(2);
  await first.plan.click();
  const dialog = page.getByRole("dialog", { name: "Termin planen" });
  await expect(select(dialog, "Schulung")).toHaveValue(first.training);
  await expect(dialog.getByTestId("invitee").getByRole("checkbox", { checked: true })).toHaveCount(2);
  await expectAccessible(page, "new event planned from the start page");
  await saveAndFind(page, team.administrator, team.facility.id, `Geplant ${unique()}`, 2);
});

test("a Super-Admin's start page names the facility of each row, and plans a date for one of them", async ({
  page,
}) => {
  const admin = await createUser(page.request, { roles: ["contentmanager"], facility: null, name: "Clara" });
  await openAs(page, admin, "/", admin.password);
  const rows = page.getByTestId("staff-due-row");
  await expect(rows.first()).toBeVisible();
  // Each row says whose it is: facility · topic.
  await expect(rows.first().getByText(/ · /)).toBeVisible();
  const first = await firstDueRow(page);
  const facility = ((await first.row.getByText(/ · /).textContent()) ?? "").split(" · ")[0] as string;
  await first.plan.click();
  const dialog = page.getByRole("dialog", { name: "Termin planen" });
  await expect(select(dialog, "Einrichtung")).toHaveValue(facility);
  await expect(select(dialog, "Schulung")).toHaveValue(first.training);
  await expect(dialog.getByTestId("invitee").getByRole("checkbox", { checked: true })).toHaveCount(first.count);
  const facilities = (await callApi(page.request, admin, "GET", "/auth/admin/facilities")) as {
    id: number;
    name: string;
  }[];
  const id = facilities.find((f) => f.name === facility)?.id as number;
  await saveAndFind(page, admin, id, `Geplant ${unique()}`, first.count);
  // A row's training opens the overview of its topic in its facility.
  await page.getByRole("link", { name: "Zurück zur Startseite" }).click();
  const again = await firstDueRow(page);
  await again.row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/progress\?topic=\d+&facility=/);
  await expect(select(page, "Einrichtung")).toHaveValue(facility);
});
