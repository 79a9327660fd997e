import { expect, type Page, test } from "@playwright/test";
import {
  apiLogin,
  createFacility,
  createTeam,
  createUser,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  expectNothingCutOff,
  loginWith,
  openAs,
  setPreference,
  type TestUser,
  text,
  unique,
} from "./helpers";

/**
 * Issue 13, 'small things that make the day easier' for the people who manage users: the
 * generated password in clear with copy and an access slip, login and facility on collapsed
 * user cards, the names in the import's deletion confirmation, and the matrix's acquired dates
 * labelled as such. Each screen is checked with axe in all four themes in German and in the dark
 * theme in English, and for sideways scrolling at 360 px.
 */

/** The default theme in German, then the dark theme in English. */
const PASSES = [
  { theme: "carely", lang: "de" },
  { theme: "dark", lang: "en" },
] as const;

/** axe on the screen as it is, once per screen state: in the German pass (the English one shows the same states). */
function scan(page: Page, where: string, pass: (typeof PASSES)[number]): Promise<void> {
  return pass.lang === "de" ? expectAccessible(page, `${where} (${pass.theme})`) : Promise.resolve();
}

async function prepare(page: Page, who: TestUser, pass: (typeof PASSES)[number]): Promise<void> {
  await setPreference(page.request, who, "theme", pass.theme);
  await setPreference(page.request, who, "language", pass.lang);
}

/** Today as the app writes dates (DD.MM.YYYY in the installation's time zone, Europe/Berlin). */
function berlinDate(offsetYears = 0): string {
  const now = new Date();
  now.setFullYear(now.getFullYear() + offsetYears);
  return new Intl.DateTimeFormat("de-DE", {
    timeZone: "Europe/Berlin",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
  }).format(now);
}

test("a generated password shows in clear, copies, and prints on an access slip with the login", async ({
  page,
  context,
  baseURL,
}) => {
  const { administrator, employee } = await createTeam(page.request, ["administrator", "employee"]);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  let password = "";

  for (const pass of PASSES) {
    const t = (key: string, values: Record<string, string> = {}) => text(pass.lang, key, values);
    await prepare(page, administrator, pass);
    await openAs(page, administrator, `/edituser/${employee.id}`);
    await expect(page.getByRole("heading", { name: t("editUser.editTitle") })).toBeVisible();

    await page.getByRole("button", { name: t("editUser.generate") }).click();
    const box = page.getByTestId("generated-password");
    // In clear text, not masked: as text on the page and in the (now unmasked) field.
    password = (await box.locator("code").textContent()) ?? "";
    expect(password).toMatch(/^[A-Za-z0-9@$!%*?&]{8}$/);
    await expect(box).toContainText(password);
    const field = page.getByLabel(t("editUser.newPassword"), { exact: true });
    await expect(field).toHaveValue(password);
    await expect(field).toHaveAttribute("type", "text");
    // Focus moves to the new password's copy button.
    const copy = box.getByRole("button", { name: t("editUser.generated.copy") });
    await expect(copy).toBeFocused();
    await scan(page, `user form with a generated password`, pass);
    await expectNoSidewaysScroll(page, "user form with a generated password");

    await copy.click();
    await expect(box.getByRole("status")).toHaveText(t("common.copied"));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);

    // Saved: the login details once more, with copy and the access slip.
    await page.getByRole("button", { name: t("common.save") }).click();
    const dialog = page.getByRole("dialog", {
      name: exactly(pass.lang, "editUser.access.title", { name: `Emma ${employee.surname}` }),
    });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("access-login")).toHaveText(employee.login);
    await expect(dialog.getByTestId("access-password")).toHaveText(password);
    await expect(dialog.getByRole("button", { name: t("editUser.generated.copy") })).toBeFocused();
    await scan(page, `access data dialog`, pass);
    await expectNoSidewaysScroll(page, "access data dialog");

    // Printing prints the slip alone: the print dialog itself is the browser's, so it is counted.
    await page.evaluate(() => {
      const w = window as unknown as { printed: number };
      w.printed = 0;
      window.print = () => {
        w.printed += 1;
      };
    });
    await dialog.getByRole("button", { name: t("editUser.access.print") }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    const slip = page.getByTestId("access-slip");
    await expect(slip).toBeHidden();
    await page.emulateMedia({ media: "print" });
    await expect(slip).toBeVisible();
    await expect(slip).toContainText(`Emma ${employee.surname}`);
    await expect(slip).toContainText(employee.login);
    await expect(slip).toContainText(password);
    await expect(slip).toContainText(`${baseURL}/login`);
    await expect(slip).toContainText(t("editUser.slip.instruction"));
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { name: t("editUser.editTitle") })).toBeHidden();
    await page.screenshot({ path: test.info().outputPath(`access-slip-${pass.lang}.png`) });
    await page.emulateMedia({ media: "screen" });
    await expect(dialog).toBeVisible();

    if (pass === PASSES[0]) {
      // Without a clipboard the app says so and selects the password for copying by hand.
      await page.evaluate(() => Object.defineProperty(navigator, "clipboard", { value: undefined }));
      await dialog.getByRole("button", { name: t("editUser.generated.copy") }).click();
      await expect(dialog.getByRole("status")).toHaveText(t("common.copyFailed"));
      expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(password);
    }

    await dialog.getByRole("button", { name: t("editUser.access.done") }).click();
    await expect(page).toHaveURL(/\/users$/);
    // The slip printed is the password saved: the employee logs in with it.
    await loginWith(page.request, { login: employee.login, password });
  }

  // A password typed in by hand is known already: saving goes straight back to the list.
  await setPreference(page.request, administrator, "language", "de");
  await openAs(page, administrator, `/edituser/${employee.id}`);
  await page.getByLabel("Neues Passwort", { exact: true }).fill("Getippt-2026!");
  await expect(page.getByTestId("generated-password")).toHaveCount(0);
  await page.getByRole("button", { name: "Speichern" }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("collapsed user cards show login and facility: two people of the same name are told apart @phone", async ({
  page,
}) => {
  const { contentmanager } = await createTeam(page.request, ["contentmanager"]);
  const [north, south] = [await createFacility(page.request, "Nord"), await createFacility(page.request, "Süd")];
  const tag = unique();
  const surname = `Schmidt ${tag}`;
  const inNorth = await createUser(page.request, { facility: north, name: "Maria", surname });
  const inSouth = await createUser(page.request, { facility: south, name: "Maria", surname });

  for (const pass of PASSES) {
    const t = (key: string) => text(pass.lang, key);
    await prepare(page, contentmanager, pass);
    await openAs(page, contentmanager, "/users");
    await page.getByLabel(t("users.search")).fill(tag);
    await expect(page.getByTestId("search-busy")).toHaveCount(0);
    const cards = page.getByTestId("user-card");
    await expect(cards).toHaveCount(2);
    for (const [user, facility, other] of [
      [inNorth, north, south],
      [inSouth, south, north],
    ] as const) {
      const card = cards.filter({ hasText: user.login });
      await expect(card).toHaveCount(1);
      const control = card.getByRole("button", { name: new RegExp(`Maria ${surname}`) });
      // Closed, and still telling who it is: the login and the facility, named for screen readers.
      await expect(control).toHaveAttribute("aria-expanded", "false");
      const identity = card.getByTestId("user-card-identity");
      await expect(identity).toBeVisible();
      await expect(identity).toContainText(user.login);
      await expect(identity).toContainText(facility.name);
      await expect(identity).not.toContainText(other.name);
      await expect(control).toHaveAccessibleName(
        new RegExp(`${t("users.login")}: ${user.login}.*${t("users.facility")}: ${facility.name}`),
      );
    }
    await scan(page, `user cards`, pass);
    await expectNoSidewaysScroll(page, "user cards");
    await expectNothingCutOff(page, "user cards");
  }
});

test("the import's archive confirmation names whom it archives, in a list that scrolls inside the dialog", async ({
  page,
}) => {
  const suffix = unique();
  const { superchris } = await createTeam(page.request, ["superchris"]);
  const { token } = await apiLogin(page, superchris);
  const facility = (await createFacility(page.request, "Import")).name;
  const person = (name: string, surname: string) => ({
    surname,
    name,
    login: `${name.toLowerCase()}.${suffix}`,
    facility,
    activities: [],
    qualifications: [],
    password: "Import-2026!",
  });
  // Mia stays in the file; 30 others leave, among them Öztürk, sorted beside the O.
  const leaving = [
    person("Ayse", `Öztürk ${suffix}`),
    ...Array.from({ length: 29 }, (_, i) => person(`Noah${String(i + 1).padStart(2, "0")}`, `Weg ${suffix}`)),
  ];
  const seeded = await page.request.post("/api/auth/admin/users?deleteNotIncludedUsers=false", {
    headers: { authorization: `Bearer ${token}` },
    data: [person("Mia", `Bleibt ${suffix}`), ...leaving],
  });
  expect(seeded.status(), await seeded.text()).toBe(200);
  const file = [
    "surname;name;login;facility;activities;qualifications;password",
    `Bleibt ${suffix};Mia;mia.${suffix};${facility};;;`,
  ].join("\r\n");

  for (const pass of PASSES) {
    const t = (key: string, values: Record<string, string | number> = {}) => text(pass.lang, key, values);
    await prepare(page, superchris, pass);
    await openAs(page, superchris, "/users");
    await page.getByRole("button", { name: t("usersImport.open") }).click();
    const dialog = page.getByRole("dialog", { name: t("usersImport.title") });
    await page
      .getByTestId("import-dropzone")
      .locator('input[type="file"]')
      .setInputFiles({ name: "mia.csv", mimeType: "text/csv", buffer: Buffer.from(file, "utf8") });
    await dialog.getByRole("switch", { name: t("former.importSwitch") }).check();
    await dialog.getByRole("button", { name: t("usersImport.import"), exact: true }).click();

    const confirm = page.getByRole("dialog", { name: t("former.importTitle") });
    await expect(confirm).toContainText(t("former.importIntro", { count: 30 }));
    const list = confirm.getByRole("region", { name: t("former.importListLabel") });
    const items = list.getByRole("listitem");
    await expect(items).toHaveCount(30);
    // Names and logins, surname first, in reading order (Öztürk before Weg), Mia not among them.
    await expect(items.first()).toHaveText(`Öztürk ${suffix}, Ayse (ayse.${suffix})`);
    await expect(items.nth(1)).toHaveText(`Weg ${suffix}, Noah01 (noah01.${suffix})`);
    await expect(items.last()).toHaveText(`Weg ${suffix}, Noah29 (noah29.${suffix})`);
    await expect(list).not.toContainText(`mia.${suffix}`);
    // The long list scrolls inside the dialog; the dialog's buttons stay on screen.
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    const confirmButton = confirm.getByRole("button", { name: t("former.importConfirmButton") });
    await expect(confirmButton).toBeInViewport();
    // The keyboard reaches the list and scrolls it.
    await list.focus();
    await page.keyboard.press("End");
    await expect(items.last()).toBeInViewport();
    await scan(page, `import deletion confirmation`, pass);
    await expectNoSidewaysScroll(page, "import deletion confirmation");

    if (pass === PASSES[0]) {
      await confirm.getByRole("button", { name: t("common.cancel") }).click();
      await expect(confirm).toBeHidden();
      await expect(dialog.getByTestId("import-result")).toHaveCount(0);
    } else {
      await confirmButton.click();
      await expect(dialog.getByTestId("import-deleted")).toContainText("30");
    }
  }
  const left = await page.request.get(`/api/auth/admin/users?query=${suffix}`, {
    headers: { authorization: `Bearer ${(await apiLogin(page, superchris)).token}` },
  });
  expect(((await left.json()) as { users: { login: string }[] }).users.map((u) => u.login)).toEqual([`mia.${suffix}`]);
});

test("in acquired-at mode the matrix labels its dates 'acquired on', and the legend says the colour follows expiry", async ({
  page,
}) => {
  const { supervisor, employee } = await createTeam(page.request, ["supervisor", "employee"]);
  // The installation's setting show-acquired-at (spec §9), as the server writes it into the page.
  await page.route("**/*", async (route) => {
    if (route.request().resourceType() !== "document") return route.fallback();
    const response = await route.fetch();
    const html = await response.text();
    const off = '<meta name="show-acquired-at" content="false">';
    expect(html).toContain(off);
    await route.fulfill({ response, body: html.replace(off, '<meta name="show-acquired-at" content="true">') });
  });
  // A certificate from today: the in-person resuscitation training marked passed.
  const { token } = await loginWith(page.request, supervisor);
  const catalogue = (await (
    await page.request.get("/api/filter/list/topics", { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { id: number; name: string; trainings: { id: number; name: string; passive: boolean }[] }[];
  const topic = catalogue.find((tp) => tp.name === "Erste Hilfe und Notfall");
  const training = topic?.trainings.find((tr) => tr.name.startsWith("Reanimationstraining"));
  expect(training?.passive).toBe(true);
  const marked = await page.request.post(`/api/progress/admin/users/${employee.id}/passivetraining`, {
    headers: { authorization: `Bearer ${token}` },
    data: { topicID: topic?.id, trainingID: training?.id },
  });
  expect(marked.status(), await marked.text()).toBe(200);

  for (const pass of PASSES) {
    const t = (key: string, values: Record<string, string> = {}) => text(pass.lang, key, values);
    await prepare(page, supervisor, pass);
    await openAs(page, supervisor, "/progress");
    await page.getByText(t("progress.modeMatrix"), { exact: true }).click();
    await page.getByRole("combobox", { name: t("progress.topic") }).click();
    await page.getByRole("option", { name: "Erste Hilfe und Notfall" }).click();
    await page.getByLabel(t("progress.filterNames")).fill(employee.surname);

    await expect(page.getByTestId("legend-note")).toHaveText(t("progress.legendFollowsExpiry"));
    await expect(page.getByTestId("matrix-date-note")).toHaveText(t("progress.datesAcquired"));
    const matrix = page.getByTestId("progress-matrix");
    await expect(matrix.getByRole("table")).toHaveAccessibleDescription(t("progress.datesAcquired"));
    const row = matrix.getByRole("row").filter({ hasText: "Reanimationstraining" });
    const acquired = t("progress.acquiredOn", { date: berlinDate() });
    const cell = row.getByRole("cell", { name: new RegExp(`^${acquired.replaceAll(".", "\\.")}`) });
    await expect(cell).toBeVisible();
    // The colour and the tooltip follow the expiry, a year on.
    await expect(cell).toHaveAttribute("data-colour", "green");
    await expect(cell).toHaveAttribute("title", new RegExp(t("progress.validUntil", { date: berlinDate(1) })));
    // A training without a certificate says so in words, not only with a dash.
    const none = matrix.getByRole("row").filter({ hasText: "Erste Hilfe im Pflegealltag" }).getByTestId("matrix-cell");
    await expect(none).toContainText(t("progress.noCertificate"));

    await scan(page, `acquired-at matrix`, pass);
    await expectNoSidewaysScroll(page, "acquired-at matrix");
  }
});
