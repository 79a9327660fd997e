import { expect, type Locator, type Page, test } from "@playwright/test";
import {
  alsoInEnglish,
  createTeam,
  createUser,
  demoPassiveCourse,
  exactly,
  expectAccessible,
  expectWordsWhole,
  goInApp,
  loginWith,
  openAs,
  type TestUser,
  text,
  unique,
} from "./helpers";

/*
 * The training calendar: planning a passive training with its invitees, editing it, recording
 * attendance (the certificates in /progress), the reminder and next date an employee sees,
 * deleting, and the personal calendar address. The planning flow runs once, in German at phone
 * size with its axe scans; its screens are shown in English (360 px) in place by
 * alsoInEnglish, where the edit and a second recording of the attendance are saved, so their
 * English toasts show too.
 */

const TOPIC = "Erste Hilfe und Notfall";
const PASSIVE = "Reanimationstraining (Präsenzkurs)";

/** The demo's in-person course (topic and training ids), and the staff member's API headers. */
async function passiveCourse(page: Page, who: TestUser) {
  const { token } = await loginWith(page.request, who);
  const course = await demoPassiveCourse(page.request, who);
  return { headers: { authorization: `Bearer ${token}` }, topic: course.topic, training: course.id };
}

/** The Mantine Select labelled `label`. */
function select(page: Page, label: string): Locator {
  return page
    .getByRole("textbox", { name: label })
    .or(page.getByRole("combobox", { name: label }))
    .first();
}

/** Picks `option` in the Mantine Select labelled `label`. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await select(page, label).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test("a supervisor plans a passive training with the proposed invitees, edits it, records attendance, and the certificates show in /progress @phone", async ({
  page,
}) => {
  const surname = `Kalender${unique()}`;
  // A long German compound, as training names and labels often are: whole on a phone's list.
  const label = `Reanimationsunterweisung ${surname}`;
  const team = await createTeam(page.request, ["supervisor", "employee"]);
  const other = await createUser(page.request, { facility: team.facility, name: "Otto", surname });
  const employeeName = `${team.employee.name} ${team.employee.surname}`;

  await openAs(page, team.supervisor, "/calendar", team.supervisor.password);
  await expect(page.getByRole("heading", { name: text("de", "calendar.title") })).toBeVisible();
  await expect(page.getByTestId("calendar")).toBeVisible();
  await expectAccessible(page, "/calendar");
  await alsoInEnglish(page, "/calendar", async (t) => {
    await expect(page.getByRole("heading", { name: t("calendar.title") })).toBeVisible();
    await expect(page.getByRole("button", { name: t("calendar.new"), exact: true })).toBeVisible();
  });

  // A new all-day event today: it has begun, so attendance can be recorded right away.
  await page.getByRole("button", { name: exactly("de", "calendar.new") }).click();
  const dialog = page.getByRole("dialog", { name: text("de", "calendar.newTitle") });
  await expect(dialog).toBeVisible();
  // The dialog opens on its first field (the topic), not on its close button, with its list shut.
  await expect(select(page, text("de", "calendar.topic"))).toBeFocused();
  await expect(page.getByRole("listbox")).toHaveCount(0);
  const save = dialog.getByRole("button", { name: exactly("de", "calendar.save") });
  await expect(save).toBeDisabled();
  await choose(page, text("de", "calendar.topic"), TOPIC);
  await choose(page, text("de", "calendar.training"), PASSIVE);
  await dialog.getByLabel(text("de", "calendar.allDay")).check();
  await dialog.getByRole("textbox", { name: text("de", "calendar.label") }).fill(label);
  // Everyone of the facility needs the course: all proposed and ticked.
  const invitees = dialog.getByTestId("invitees");
  await expect(invitees.getByRole("checkbox", { name: employeeName })).toBeChecked();
  await expect(invitees.getByRole("checkbox", { name: `Otto ${surname}` })).toBeChecked();
  await expect(invitees.getByTestId("invitee").first().locator("[data-colour]")).toHaveAttribute("data-colour", "red");
  await expectAccessible(page, "event dialog");
  await alsoInEnglish(page, "event dialog", async (t) => {
    const shown = page.getByRole("dialog", { name: t("calendar.newTitle") });
    await expect(select(page, t("calendar.topic"))).toHaveValue(TOPIC);
    await expect(select(page, t("calendar.training"))).toHaveValue(PASSIVE);
    await expect(shown.getByLabel(t("calendar.allDay"))).toBeChecked();
    await expect(shown.getByRole("textbox", { name: t("calendar.label") })).toHaveValue(label);
    await expect(shown.getByRole("button", { name: t("calendar.save"), exact: true })).toBeEnabled();
  });
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText(text("de", "calendar.saved"))).toBeVisible();
  await expect(dialog).toBeHidden();

  // Edit, in English: the place, and Otto is not coming after all.
  const event = page.getByTestId("calendar").getByText(label).first();
  // The phone's month list: the time above the name, the name's words whole.
  await expectWordsWhole(page, event, "the calendar's month list");
  await event.click();
  await expect(page.getByRole("dialog", { name: text("de", "calendar.editTitle") })).toBeVisible();
  await alsoInEnglish(page, "the saved edit, then the calendar", async (t) => {
    const edit = page.getByRole("dialog", { name: t("calendar.editTitle") });
    await edit.getByRole("textbox", { name: t("calendar.location") }).fill("Saal 2");
    await edit
      .getByTestId("invitees")
      .getByRole("checkbox", { name: `Otto ${surname}` })
      .uncheck();
    await edit.getByRole("button", { name: t("calendar.save"), exact: true }).click();
    // The first save's toast was German: this one is the edit's.
    await expect(page.getByText(t("calendar.saved"))).toBeVisible();
    await expect(edit).toBeHidden();
  });

  // Attendance after the start: the certificate is issued at once. The started event opens on
  // its attendance, before the fields, which says from which day the certificate is valid.
  await event.click();
  const again = page.getByRole("dialog", { name: text("de", "calendar.editTitle") });
  await expect(again.getByRole("textbox", { name: text("de", "calendar.location") })).toHaveValue("Saal 2");
  const attendance = again.getByTestId("attendance");
  await expect(attendance.getByRole("checkbox")).toHaveCount(1);
  await expect(attendance.getByRole("checkbox", { name: employeeName })).toBeFocused();
  await expect(again.locator('[data-testid="attendance"] ~ * input[type="checkbox"]').first()).toBeAttached();
  const today = new Intl.DateTimeFormat("de-DE", {
    timeZone: "Europe/Berlin",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
  }).format(new Date());
  await expect(attendance).toContainText(text("de", "calendar.attendancePassive", { date: today }));
  await expectAccessible(page, "a started event, opened on its attendance");
  await attendance.getByRole("checkbox", { name: employeeName }).check();
  await attendance.getByRole("button", { name: exactly("de", "calendar.saveAttendance") }).click();
  await expect(page.getByText(text("de", "calendar.attendanceSaved", { count: 1 }))).toBeVisible();
  // Recorded again, in English: the employee already holds the certificate, so none is issued.
  await alsoInEnglish(page, "the edit dialog with the attendance", async (t) => {
    const shown = page.getByRole("dialog", { name: t("calendar.editTitle") });
    await expect(shown.getByRole("textbox", { name: t("calendar.location") })).toHaveValue("Saal 2");
    const recorded = shown.getByTestId("attendance");
    await expect(recorded.getByRole("checkbox", { name: employeeName })).toBeChecked();
    await recorded.getByRole("button", { name: t("calendar.saveAttendance"), exact: true }).click();
    await expect(page.getByText(t("calendar.attendanceSaved", { count: 0 }))).toBeVisible();
    await expect(shown.getByRole("button", { name: t("common.cancel"), exact: true })).toBeVisible();
  });
  await again.getByRole("button", { name: exactly("de", "common.cancel") }).click();

  // The overview shows the course as passed.
  await goInApp(page, "/progress");
  await page.getByTestId("topic-chips").getByText(TOPIC).click();
  const course = page.getByTestId("training-status").filter({ hasText: "Reanimationstraining" });
  const green = course.locator('[data-testid="status-group"][data-colour="green"]');
  await green.getByRole("button").click();
  await expect(green).toContainText(`${team.employee.surname}, ${team.employee.name}`);
  expect(other.id).toBeGreaterThan(0);
});

test("an employee sees the reminder, the next date on the start and training pages, and downloads the .ics @phone", async ({
  page,
}) => {
  const team = await createTeam(page.request, ["supervisor", "employee"]);
  const { headers, topic, training } = await passiveCourse(page, team.supervisor);
  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(tomorrow);
  const start = `${day}T10:00:00+01:00`;
  const end = `${day}T11:30:00+01:00`;
  const created = await page.request.post("/api/calendar/events", {
    headers,
    data: {
      Title: `${team.facility.id}|${topic}|${training}|Reanimation morgen`,
      Start: start,
      End: end,
      AllDay: false,
      Color: "#be123c",
      Location: "Saal 1",
      Invitees: [team.employee.id],
    },
  });
  expect(created.status(), await created.text()).toBe(200);

  await openAs(page, team.employee, "/", team.employee.password);
  const upcoming = page.getByTestId("upcoming-events");
  await expect(upcoming).toContainText("Reanimation morgen");
  await expect(upcoming).toContainText("Saal 1");
  await page.getByTestId("notification-bell").click();
  const reminder = page.getByTestId("notification").filter({ hasText: "Reanimation morgen" });
  await expect(reminder).toContainText(/^Morgen um \d\d:\d\d/);
  await reminder.click();
  await expect(page).toHaveURL(/\/topic\/\d+\/training\/\d+$/);
  // The notification menu closes with a short animation, its read items already gone: scan after it.
  await expect(page.locator('[role="menu"]')).toHaveCount(0);
  await expect(page.getByTestId("next-date")).toContainText(
    /Nächster Termin: \d\d\.\d\d\.\d{4}, \d\d:\d\d–\d\d:\d\d Uhr/,
  );
  const ics = page.getByTestId("next-date").getByRole("link");
  const res = await page.request.get((await ics.getAttribute("href")) ?? "");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/calendar");
  expect(await res.text()).toContain("BEGIN:VEVENT");
  await expectAccessible(page, "training page with its next date");
});

test("deleting an event asks first, and takes it off the calendar", async ({ page }) => {
  const team = await createTeam(page.request, ["administrator"]);
  const { headers, topic, training } = await passiveCourse(page, team.administrator);
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(new Date());
  const label = `Weg ${unique()}`;
  const res = await page.request.post("/api/calendar/events", {
    headers,
    data: {
      Title: `${team.facility.id}|${topic}|${training}|${label}`,
      Start: day,
      End: new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
      AllDay: true,
      Color: "#1d4ed8",
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  await openAs(page, team.administrator, "/calendar", team.administrator.password);
  await page.getByTestId("calendar").getByText(label).first().click();
  const dialog = page.getByRole("dialog", { name: text("de", "calendar.editTitle") });
  await dialog.getByRole("button", { name: exactly("de", "calendar.delete") }).click();
  const confirm = page.getByRole("dialog", { name: text("de", "calendar.deleteTitle") });
  await expect(confirm).toContainText(text("de", "calendar.deleteText"));
  await confirm.getByRole("button", { name: exactly("de", "calendar.delete") }).click();
  await expect(page.getByText(text("de", "calendar.deleted"))).toBeVisible();
  await expect(page.getByTestId("calendar").getByText(label)).toHaveCount(0);
});

test("the calendar and its dialog pass axe", async ({ page }) => {
  const team = await createTeam(page.request, ["supervisor", "employee"]);
  await openAs(page, team.supervisor, "/calendar", team.supervisor.password);
  await expect(page.getByTestId("calendar")).toBeVisible();
  await expectAccessible(page, "/calendar");
  await page.getByRole("button", { name: exactly("de", "calendar.new") }).click();
  const dialog = page.getByRole("dialog", { name: text("de", "calendar.newTitle") });
  // A select's list, scanned where it opens: longer than its height, it scrolls — the list itself,
  // the combobox's popup that the arrow keys move through from the field.
  await select(page, text("de", "calendar.topic")).click();
  const topics = page.getByRole("listbox");
  await expect(topics.getByRole("option", { name: TOPIC, exact: true })).toBeVisible();
  expect(await topics.evaluate((list) => list.scrollHeight > list.clientHeight)).toBe(true);
  await expectAccessible(page, "the event's topic list, open");
  await topics.getByRole("option", { name: TOPIC, exact: true }).click();
  await choose(page, text("de", "calendar.training"), PASSIVE);
  await expect(dialog.getByTestId("invitee").first()).toBeVisible();
  await expectAccessible(page, "event dialog");

  // Its date picker, scanned where it opens: named month arrows, no days of other months.
  const date = dialog.getByRole("button", { name: text("de", "calendar.date") });
  await date.click();
  // The popover that holds the month (the calendar page has month arrows of its own).
  const picker = page
    .locator('[id$="-dropdown"]')
    .filter({ has: page.locator(".mantine-DatePickerInput-calendarHeaderControl") });
  const previous = picker.getByRole("button", { name: text("de", "dates.previousMonth") });
  await expect(previous).toBeVisible();
  await expect(picker.getByRole("button", { name: text("de", "dates.nextMonth") })).toBeVisible();
  await expect(picker.locator("[data-outside]:visible")).toHaveCount(0);
  await expectAccessible(page, "the event's date picker");
  // A day of last month: saving asks first, since it lies in the past.
  await previous.click();
  await picker.getByRole("button", { name: /^15 / }).click();
  await expect(date).toBeFocused();
  await dialog.getByRole("button", { name: exactly("de", "calendar.save") }).click();
  const past = page.getByRole("dialog", { name: text("de", "calendar.pastTitle") });
  await expect(past).toBeVisible();
  await expectAccessible(page, "the question about a date in the past");
  await past.getByRole("button", { name: exactly("de", "common.cancel") }).click();
  await expect(past).toBeHidden();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: exactly("de", "calendar.save") }).click();
  await page
    .getByRole("dialog", { name: text("de", "calendar.pastTitle") })
    .getByRole("button", { name: exactly("de", "calendar.pastSave") })
    .click();
  await expect(page.getByText(text("de", "calendar.saved"))).toBeVisible();
  await expect(dialog).toBeHidden();
});

test("a personal calendar address shows the employee's dates in a calendar app until it is revoked", async ({
  page,
}) => {
  const team = await createTeam(page.request, ["employee"]);
  await openAs(page, team.employee, "/account", team.employee.password);
  const panel = page.getByTestId("calendar-feed");
  // A password change or reset revokes the address (the server's test shows it): the panel says so.
  await expect(panel.getByText(text("de", "calendar.feed.password"))).toBeVisible();
  await panel.getByRole("button", { name: exactly("de", "calendar.feed.create") }).click();
  const url = await panel.getByRole("textbox", { name: text("de", "calendar.feed.url") }).inputValue();
  expect(url).toMatch(/\/api\/calendar\/feed\/[A-Za-z0-9_-]{32,64}\.ics$/);
  // A calendar app sends no session: the address alone is the key.
  const feed = await page.request.get(url, { headers: {} });
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain("BEGIN:VCALENDAR");
  await expectAccessible(page, "/account with the calendar address");
  await panel.getByRole("button", { name: exactly("de", "calendar.feed.revoke") }).click();
  await expect(page.getByText(text("de", "calendar.feed.revoked"))).toBeVisible();
  expect((await page.request.get(url)).status()).toBe(404);
});
