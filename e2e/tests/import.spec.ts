import fs from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import iconv from "iconv-lite";
import { apiLogin, createFacility, createTeam, openAs, setLanguage, type TestUser, unique } from "./helpers";

const HEADER = ["surname", "name", "login", "facility", "activities", "qualifications", "password"];
const OPEN_DE = "Benutzer importieren (CSV)";
const TITLE_DE = "Benutzer aus einer CSV-Datei importieren";

/** One CSV line; cells holding the delimiter or a quote are quoted, as Excel writes them. */
const line = (cells: string[], delimiter: string) =>
  cells.map((c) => (c.includes(delimiter) || c.includes('"') ? `"${c.replaceAll('"', '""')}"` : c)).join(delimiter);
const csv = (rows: string[][], delimiter = ";") =>
  `${[HEADER, ...rows].map((r) => line(r, delimiter)).join("\r\n")}\r\n`;

async function openImport(page: Page, open = OPEN_DE, title = TITLE_DE) {
  await page.getByRole("button", { name: open }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function chooseFile(page: Page, name: string, mimeType: string, buffer: Buffer) {
  await page.getByTestId("import-dropzone").locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
}

/** A Super-Admin of the test's own and two facilities of its own, for the files to name. */
async function setUp(page: Page): Promise<{ superchris: TestUser; sonnenhof: string; lindenhof: string }> {
  const { superchris } = await createTeam(page.request, ["superchris"]);
  const sonnenhof = (await createFacility(page.request, "Sonnenhof")).name;
  const lindenhof = (await createFacility(page.request, "Lindenhof")).name;
  return { superchris, sonnenhof, lindenhof };
}

test("superchris imports a Windows-1252 semicolon file and finds an imported user", async ({ page }) => {
  const suffix = unique();
  const { superchris, sonnenhof, lindenhof } = await setUp(page);
  await openAs(page, superchris, "/users");
  const dialog = await openImport(page);
  // German Excel's "CSV (Trennzeichen-getrennt)": Windows-1252, semicolons, lists in quotes.
  const file = csv([
    [
      "Müller-Weiß",
      "Jürgen",
      `juergen.${suffix}`,
      sonnenhof,
      "Tagespflege;Nachtdienst",
      "Altenpfleger/in",
      "Juergen-2024!",
    ],
    ["Größe", "Änne", `aenne.${suffix}`, sonnenhof, "Küche", "Koch/Köchin", "Aenne-2024!"],
    ["Cœur", "François", `francois.${suffix}`, lindenhof.toLowerCase(), "", "", "Francois-2024!"],
    ["Lefèvre", "Hélène", `helene.${suffix}`, lindenhof, "Palliativpflege", "", "Helene-2024!"],
  ]);
  await chooseFile(page, "Mitarbeiter.csv", "application/vnd.ms-excel", iconv.encode(file, "win1252"));

  await expect(dialog.getByTestId("import-file-name")).toHaveText("Mitarbeiter.csv");
  await expect(dialog.getByTestId("import-file-info")).toHaveText(
    "Kodierung: Windows-1252 · Trennzeichen: Semikolon (;)",
  );
  await expect(dialog.getByTestId("import-summary")).toContainText("Zeilen: 4");
  await expect(dialog.getByTestId("import-summary")).toContainText("Zeilen mit Problemen: 0");
  const preview = dialog.getByTestId("import-preview");
  await expect(preview.getByRole("row", { name: /Cœur François/ })).toBeVisible();
  await expect(preview.getByRole("row", { name: /Müller-Weiß Jürgen/ })).toContainText("Tagespflege, Nachtdienst");

  await dialog.getByRole("button", { name: "Importieren" }).click();
  await expect(page.getByText("Benutzer importiert")).toBeVisible();
  await expect(dialog.getByTestId("import-created")).toContainText("4");
  await expect(dialog.getByTestId("import-deleted")).toContainText("0");
  // The dialog's own button at its end (the corner's × carries the same name).
  await dialog.locator("button").filter({ hasText: "Schließen" }).click();
  await expect(dialog).toBeHidden();

  await page.getByLabel("Mitarbeitende suchen").fill(`francois.${suffix}`);
  const card = page.getByTestId("user-card").filter({ hasText: "François Cœur" });
  await expect(card).toHaveCount(1);
  await card.getByRole("button", { name: /François Cœur/ }).click();
  await expect(card.getByText(lindenhof)).toBeVisible();
  await expect(card.getByText("Mitarbeiter/in")).toBeVisible();
});

test("superchris imports Excel's 'Unicode text' (UTF-16 LE, tabs) with Turkish and Polish names", async ({ page }) => {
  const suffix = unique();
  const { superchris, sonnenhof, lindenhof } = await setUp(page);
  await openAs(page, superchris, "/users");
  const dialog = await openImport(page);
  const file = csv(
    [
      ["Öztürk", "Şükrü", `sukru.${suffix}`, sonnenhof, "Küche;Reinigung", "", "Sukru-2024!"],
      ["Yıldız", "Ayşe", `ayse.${suffix}`, sonnenhof, "", "Pflegehelfer/in", "Ayse-2024!"],
      ["Gündoğan", "İlkay", `ilkay.${suffix}`, lindenhof, "", "", "Ilkay-2024!"],
      ["Wróbel", "Łukasz", `lukasz.${suffix}`, lindenhof, "Nachtdienst", "", "Lukasz-2024!"],
      ["Żółć", "Zofia", `zofia.${suffix}`, lindenhof, "", "", "Zofia-2024!"],
      ["Brzęczyszczykiewicz", "Grzegorz", `grzegorz.${suffix}`, lindenhof, "", "", "Grzegorz-2024!"],
    ],
    "\t",
  );
  const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(file, "utf16le")]);
  await chooseFile(page, "Unicode-Text.csv", "text/csv", bytes);

  await expect(dialog.getByTestId("import-file-info")).toHaveText("Kodierung: UTF-16 LE · Trennzeichen: Tabulator");
  await expect(dialog.getByTestId("import-summary")).toContainText("Zeilen: 6");
  await expect(dialog.getByTestId("import-preview").getByRole("row", { name: /Öztürk Şükrü/ })).toContainText(
    "Küche, Reinigung",
  );
  await dialog.getByRole("button", { name: "Importieren" }).click();
  await expect(dialog.getByTestId("import-created")).toContainText("6");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.getByLabel("Mitarbeitende suchen").fill(suffix);
  for (const name of ["Şükrü Öztürk", "İlkay Gündoğan", "Zofia Żółć", "Grzegorz Brzęczyszczykiewicz"]) {
    await expect(page.getByTestId("user-card").filter({ hasText: name })).toHaveCount(1);
  }
});

test("rows with problems are marked, block the import, and the server's refusals land on their rows @phone", async ({
  page,
}) => {
  const suffix = unique();
  const { superchris, sonnenhof } = await setUp(page);
  const { token } = await openAs(page, superchris, "/users");
  const dialog = await openImport(page);
  const file = csv([
    ["Müller", "Anna", `anna.${suffix}`, "Haus Nirgendwo", "Tagespflege", "", "Anna-2024!"],
    ["Schmidt", "Ben", `ben ${suffix}`, sonnenhof, "Töpfern", "", "schwach"],
    ["Klein", "Cem", `cem.${suffix}`, sonnenhof, "", "", "Cem-2024!"],
  ]);
  await chooseFile(page, "fehler.csv", "text/csv", Buffer.from(`\uFEFF${file}`, "utf8"));

  await expect(dialog.getByTestId("import-summary")).toContainText("Zeilen mit Problemen: 2");
  const bad = dialog.locator("tr[data-problems]");
  await expect(bad).toHaveCount(2);
  await expect(bad.nth(0)).toContainText("Unbekannte Einrichtung: Haus Nirgendwo");
  await expect(bad.nth(1)).toContainText(`Der Benutzername enthält Leerzeichen: ben ${suffix}`);
  await expect(bad.nth(1)).toContainText("Unbekannter Tätigkeitsschwerpunkt: Töpfern");
  await expect(bad.nth(1)).toContainText("Das Passwort erfüllt die Passwortregeln nicht");
  await expect(dialog.getByRole("button", { name: "Importieren" })).toBeDisabled();
  await dialog.getByRole("switch", { name: "Nur Zeilen mit Problemen zeigen" }).check();
  await expect(dialog.locator("tr[data-row]")).toHaveCount(2);

  // The table scrolls inside the dialog; the page itself never gets wider than the screen.
  const widths = await dialog
    .getByTestId("import-preview")
    .evaluate((table) => ({ table: table.getBoundingClientRect().width, page: document.documentElement.scrollWidth }));
  expect(widths.page).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
  expect(widths.table).toBeGreaterThanOrEqual(900);

  // "admin" (a demo login, read only) is a staff login: only the server knows, and refuses the whole file.
  await dialog.getByRole("button", { name: "Andere Datei wählen" }).click();
  const taken = csv([
    ["Klein", "Cem", `cem.${suffix}`, sonnenhof, "", "", "Cem-2024!"],
    ["Admin", "Anna", "admin", sonnenhof, "", "", "Anna-2024!"],
  ]);
  await chooseFile(page, "vergeben.csv", "text/csv", Buffer.from(taken, "utf8"));
  await expect(dialog.getByTestId("import-summary")).toContainText("Zeilen mit Problemen: 0");
  await dialog.getByRole("button", { name: "Importieren" }).click();
  await expect(dialog.getByTestId("import-problems")).toContainText("Der Server hat den Import abgelehnt");
  await expect(dialog.locator("tr[data-problems]")).toHaveCount(1);
  await expect(dialog.locator("tr[data-problems]")).toContainText(
    "Der Benutzername gehört einem Konto, das nicht importiert werden kann: admin",
  );
  await expect(dialog.getByRole("button", { name: "Importieren" })).toBeDisabled();
  const res = await page.request.get(`/api/auth/admin/users?query=cem.${suffix}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(((await res.json()) as { total: number }).total).toBe(0);
});

test("a long file shows its first 200 rows but counts the problems of all", async ({ page }) => {
  const { superchris, sonnenhof } = await setUp(page);
  await openAs(page, superchris, "/users");
  const dialog = await openImport(page);
  const rows = Array.from({ length: 230 }, (_, i) => [
    `Name${i}`,
    "Lena",
    `lena${i}.long`,
    sonnenhof,
    "",
    "",
    "Lena-2024!",
  ]);
  rows[229] = ["Name229", "Lena", "lena229.long", "Haus Irgendwo", "", "", "Lena-2024!"];
  await chooseFile(page, "lang.csv", "text/csv", Buffer.from(csv(rows), "utf8"));
  await expect(dialog.getByTestId("import-summary")).toContainText("Zeilen: 230");
  await expect(dialog.getByTestId("import-summary")).toContainText("Zeilen mit Problemen: 1");
  await expect(dialog.locator("tr[data-row]")).toHaveCount(200);
  await expect(dialog.getByText("… und 30 weitere Zeilen")).toBeVisible();
  await dialog.getByRole("switch", { name: "Nur Zeilen mit Problemen zeigen" }).check();
  await expect(dialog.locator("tr[data-row]")).toHaveCount(1);
  await expect(dialog.locator('tr[data-row="231"]')).toContainText("Haus Irgendwo");
  await expect(dialog.locator("tr[data-problems]")).toContainText("Unbekannte Einrichtung: Haus Irgendwo");
});

test("files that cannot be imported say why, in English", async ({ page }) => {
  const { superchris, sonnenhof } = await setUp(page);
  await setLanguage(page.request, superchris, "en");
  await openAs(page, superchris, "/users");
  const dialog = await openImport(page, "Import users (CSV)", "Import users from a CSV file");
  const problem = dialog.getByTestId("import-file-problem");
  const good = csv([["Doe", "Jane", "jane.doe", sonnenhof, "", "", "Jane-2024!"]]);

  // Consecutive files give different messages, so each expectation waits for its own file.
  await chooseFile(page, "users.txt", "text/plain", Buffer.from(good, "utf8"));
  await expect(problem).toHaveText("Only csv files supported");
  const withNuls = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + (i >> 3)) % 256));
  await chooseFile(page, "users.csv", "text/csv", withNuls);
  await expect(problem).toContainText("Wrong encoding");
  await chooseFile(page, "users.pdf", "application/pdf", Buffer.from("%PDF-1.4\n%âãÏÓ\n", "latin1"));
  await expect(problem).toHaveText("Only csv files supported");
  // Without NUL bytes and not UTF-8: the encoding detector (loaded on demand) refuses it.
  const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => ((i * 7919 + (i >> 3)) % 255) + 1));
  await chooseFile(page, "noise.csv", "text/csv", noise);
  await expect(problem).toContainText("Wrong encoding");
  await chooseFile(page, "users.csv", "text/csv", Buffer.from("Name;Surname;Login\nJane;Doe;jane\n", "utf8"));
  await expect(problem).toHaveText(
    "The header line must contain the fields surname, name, login, facility, activities, qualifications, password. " +
      "Missing: facility, activities, qualifications, password",
  );

  // The template (UTF-8 with BOM, semicolons, names from the real lists) goes through to the preview.
  const download = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download template" }).click();
  const template = await download;
  expect(template.suggestedFilename()).toBe("user-import-template.csv");
  const bytes = await fs.readFile(await template.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(bytes.subarray(3).toString("utf8").split("\r\n")[0]).toBe(HEADER.join(";"));
  await chooseFile(page, template.suggestedFilename(), "text/csv", bytes);
  await expect(dialog.getByTestId("import-file-info")).toHaveText("Encoding: UTF-8 · Delimiter: semicolon (;)");
  await expect(dialog.getByTestId("import-summary")).toContainText("Rows: 1");
  await expect(dialog.getByTestId("import-summary")).toContainText("Rows with problems: 0");
  await expect(dialog.getByTestId("import-preview")).toContainText("Jane");
});

test("archiving the employees a file leaves out needs a confirmation naming them", async ({ page }) => {
  const suffix = unique();
  const { superchris } = await createTeam(page.request, ["superchris"]);
  const { token } = await apiLogin(page, superchris);
  const headers = { authorization: `Bearer ${token}` };
  // A facility of its own: the deletion touches only its employees.
  const facility = (await createFacility(page.request, "Import")).name;
  const user = (first: string) => ({
    surname: `Test ${suffix}`,
    name: first,
    login: `${first.toLowerCase()}.${suffix}`,
    facility,
    activities: [],
    qualifications: [],
    password: `${first}-2024!`,
  });
  const seeded = await page.request.post("/api/auth/admin/users?deleteNotIncludedUsers=false", {
    headers,
    data: [user("Mia"), user("Noah")],
  });
  expect(seeded.status(), await seeded.text()).toBe(200);
  await openAs(page, superchris, "/users");
  const dialog = await openImport(page);
  // Noah stays out of the file; Mia keeps her password (empty cell).
  const file = csv([[`Test ${suffix}`, "Mia", `mia.${suffix}`, facility, "", "", ""]]);
  await chooseFile(page, "mia.csv", "text/csv", Buffer.from(file, "utf8"));
  await expect(dialog.getByTestId("import-preview")).toContainText("(behält Passwort)");
  await dialog.getByRole("switch", { name: "Nicht enthaltene Mitarbeitende archivieren" }).check();

  await dialog.getByRole("button", { name: "Importieren" }).click();
  const confirm = page.getByRole("dialog", { name: "Mitarbeitende archivieren?" });
  await expect(confirm).toContainText("Die Datei würde 1 Mitarbeitende archivieren, die nicht in ihr stehen:");
  await expect(confirm.getByRole("listitem")).toHaveText([`Test ${suffix}, Noah (noah.${suffix})`]);
  await confirm.getByRole("button", { name: "Abbrechen" }).click();
  await expect(confirm).toBeHidden();
  await expect(dialog.getByTestId("import-result")).toHaveCount(0);

  await dialog.getByRole("button", { name: "Importieren" }).click();
  await confirm.getByRole("button", { name: "Importieren und archivieren" }).click();
  await expect(dialog.getByTestId("import-unchanged")).toContainText("1");
  await expect(dialog.getByTestId("import-deleted")).toContainText("1");
  const left = await page.request.get(`/api/auth/admin/users?query=${suffix}`, { headers });
  const { users } = (await left.json()) as { users: { login: string }[] };
  expect(users.map((u) => u.login)).toEqual([`mia.${suffix}`]);
});
