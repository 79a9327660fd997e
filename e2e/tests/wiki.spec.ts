import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import {
  alsoInEnglish,
  applyPreference,
  callApi,
  createTeam,
  createUser,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  expectNothingCutOff,
  goInApp,
  loginWith,
  openAs,
  type TestUser,
  text,
  unique,
} from "./helpers";

/*
 * The wiki: a training's page read first and confirmed, the search, a page edited with its history
 * and diff, a save that meets a newer version, a facility's own page that asks for confirmation,
 * and axe over the wiki's screens and dialogs. The reading and the facility page run once, in
 * German at phone size with their axe scans; their screens are shown in English (360 px) in place by alsoInEnglish: the reader's page there is its English version, confirmed in
 * English, and the facility page is saved in English (the German save's toast: the editor's tests).
 */

/** A 4×4 red PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==",
  "base64",
);

/** The demo's page that asks every employee for a read confirmation (content/demo/wiki/). */
const HAND_HYGIENE = "/wiki/hygiene/haendehygiene";

async function headersOf(request: APIRequestContext, who: TestUser): Promise<Record<string, string>> {
  const { token } = await loginWith(request, who);
  return { authorization: `Bearer ${token}` };
}

/** The training page of the demo training 'Händehygiene' (its wiki link is HAND_HYGIENE). */
async function handHygieneTraining(request: APIRequestContext, who: TestUser): Promise<string> {
  const headers = await headersOf(request, who);
  const topics = (await (await request.get("/api/progress/topics", { headers })).json()) as {
    id: number;
    name: string;
  }[];
  const topic = topics.find((t) => t.name === "Hygiene und Infektionsschutz");
  const detail = (await (await request.get(`/api/progress/topics/${topic?.id}/trainings`, { headers })).json()) as {
    trainings: { id: number; name: string }[];
  };
  const training = detail.trainings.find((t) => t.name === "Händehygiene");
  return `/topic/${topic?.id}/training/${training?.id}`;
}

interface CreatedPage {
  id: number;
  version: number;
  path: string;
  title: string;
}

/** A page written through the API (a draft), optionally released: for tests that start beyond its creation. */
async function createPage(
  request: APIRequestContext,
  who: TestUser,
  options: { facility?: number; requiresConfirmation?: boolean; release?: boolean; markdown?: string } = {},
): Promise<CreatedPage> {
  const headers = await headersOf(request, who);
  const slug = `seite-${unique()}`;
  const title = `Verfahren ${slug}`;
  const res = await request.post("/api/wiki/pages", {
    headers,
    data: {
      topic: "hygiene",
      slug,
      facility: options.facility,
      lang: "de",
      title,
      markdown:
        options.markdown ??
        "## Zweck\n\nDiese Seite regelt das Vorgehen.\n\n> [!WARNING]\n> Vorher Schmuck ablegen.\n\n| Schritt | Dauer |\n| --- | --- |\n| Einreiben | 30 s |",
      requires_confirmation: options.requiresConfirmation ?? false,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  let page = (await res.json()) as { id: number; version: number };
  if (options.release) {
    const released = await request.post(`/api/wiki/pages/${page.id}/release`, {
      headers,
      data: { version: page.version },
    });
    expect(released.status(), await released.text()).toBe(200);
    page = (await released.json()) as { id: number; version: number };
  }
  return { id: page.id, version: page.version, path: `/wiki/hygiene/${slug}`, title };
}

/**
 * The page's title is the screen's heading; after a navigation inside the app it has the focus
 * (not right after openAs: the tutorial prompt, when it greets a new user, returns the focus to
 * where it was when it opened).
 */
async function expectPageHeading(page: Page, title: string, focused = true): Promise<void> {
  const heading = page.getByRole("heading", { level: 1, name: title });
  await expect(heading).toBeVisible();
  if (focused) await expect(heading).toBeFocused();
}

/** A dialog has finished its opening transition: axe measures contrast on what is really shown. */
async function settled(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
}

test("an employee reads the wiki page of a training first and confirms it @phone", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  const training = await handHygieneTraining(page.request, employee);

  // Learners never download the editor (it loads only when admin mode opens it).
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });

  // The training offers the wiki first (show-read-wiki-first is on in this server).
  await openAs(page, employee, training, employee.password);
  await page.getByTestId("questionnaire").first().getByRole("button").last().click();
  const offer = page.getByRole("dialog", { name: text("de", "wikiDialog.title") });
  await expect(offer).toBeVisible();
  await alsoInEnglish(page, "the wiki offer", async (t) => {
    const shown = page.getByRole("dialog", { name: t("wikiDialog.title") });
    await expect(shown.getByRole("button", { name: t("wikiDialog.toWiki"), exact: true })).toBeVisible();
  });
  await offer.getByRole("button", { name: exactly("de", "wikiDialog.toWiki") }).click();
  await expect(page).toHaveURL(new RegExp(`${HAND_HYGIENE}$`));

  // The page in the reader's language, its callouts titled, its tables in their own scrolling box.
  await expect(page.getByTestId("wiki-html")).toBeVisible();
  await expectPageHeading(page, "Händehygiene");
  const warning = page.getByTestId("wiki-html").locator('[data-callout="warning"]').first();
  await expect(warning).toContainText(text("de", "wiki.callout.warning"));
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const box = page.getByTestId("wiki-confirm");
  await expect(box).toBeVisible();
  // The confirmation comes after the text it confirms.
  await expect(page.locator('article ~ [data-testid="wiki-confirm"]')).toBeVisible();
  await expect(box.getByRole("button", { name: exactly("de", "wiki.confirm.button") })).toBeVisible();
  await expectAccessible(page, "wiki page with the read confirmation");

  // In English the page itself is the English one; confirmed there (recorded as read in English),
  // the confirmed state with its date, and the focus on it.
  const done = page.getByTestId("wiki-confirmed");
  await alsoInEnglish(page, "the confirmed wiki page", async (t) => {
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hand Hygiene");
    await expect(warning).toContainText(t("wiki.callout.warning"));
    // A translation is read: the box says the German version is binding (issue 31).
    await expect(box.getByTestId("wiki-confirm-binding")).toHaveText(
      t("wiki.confirm.binding", { language: t("wiki.languages.en") }),
    );
    await box.getByRole("button", { name: t("wiki.confirm.button"), exact: true }).click();
    await expect(done).toBeVisible();
    await expect(done).toBeFocused();
    await expect(done).toContainText(t("wiki.confirm.doneTitle"));
    await expect(page.getByTestId("wiki-confirm")).toHaveCount(0);
  });
  await expectPageHeading(page, "Händehygiene", false);
  await expect(done).toContainText(text("de", "wiki.confirm.doneTitle"));

  // The tree no longer asks for it; a reload keeps it confirmed.
  await page.getByRole("link", { name: text("de", "wiki.title"), exact: true }).click();
  await expect(page).toHaveURL(/\/wiki$/);
  const item = page.locator('[data-testid="wiki-page-item"][data-slug="haendehygiene"]');
  await expect(item).toBeVisible();
  await expect(item.getByTestId("badge-confirm")).toHaveCount(0);
  const asking = page.locator('[data-testid="wiki-page-item"][data-slug="hygieneplan"]').getByTestId("badge-confirm");
  await expect(asking).toBeVisible();
  await expectAccessible(page, "wiki tree");
  await alsoInEnglish(page, "wiki tree", async (t) => {
    await expect(page.getByRole("heading", { level: 1, name: t("wiki.title"), exact: true })).toBeVisible();
    await expect(asking).toContainText(t("wiki.badge.confirm"));
    await expect(item.getByTestId("badge-confirm")).toHaveCount(0);
  });
  await page.goto(HAND_HYGIENE);
  await expect(page.getByTestId("wiki-confirmed")).toBeVisible();
  expect(scripts.some((url) => url.includes("WikiPageScreen"))).toBe(true);
  expect(scripts.filter((url) => url.includes("WikiEditor"))).toEqual([]);
});

test("the wiki search shows ranked hits with the matched words marked", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  await openAs(page, employee, "/wiki", employee.password);
  await page.getByRole("searchbox", { name: text("de", "wiki.search.label") }).fill("Händedesinfektion");
  const hits = page.getByTestId("wiki-hits");
  await expect(hits.locator("li").first()).toBeVisible();
  await expect(hits.locator("mark").first()).toBeVisible();
  await expect(hits.getByRole("link", { name: "Händehygiene", exact: true })).toBeVisible();
  await expectAccessible(page, "wiki search");
  await page.getByRole("searchbox").fill("xqzwv");
  await expect(page.getByTestId("wiki-search-count")).toHaveText(text("de", "wiki.search.none"));
});

test("a Super-Admin edits a common page in the editor: 'wiki changed', the new revision in the history and its diff", async ({
  page,
}) => {
  const manager = await createUser(page.request, { roles: ["contentmanager"], name: "Clara" });
  const created = await createPage(page.request, manager, { release: true });
  await openAs(page, manager, "/wiki/hygiene", manager.password);
  await page.getByRole("link", { name: created.title }).click();
  await expectPageHeading(page, created.title);
  const editorScript = page.waitForRequest((r) => r.url().includes("WikiEditor") && r.resourceType() === "script");
  await page.getByRole("button", { name: exactly("de", "wiki.admin.edit") }).click();
  await editorScript;

  // The editor: a named toolbar with toggles that say whether they are on, a named text area.
  const editor = page.getByTestId("wiki-editor");
  const content = editor.getByRole("textbox", { name: text("de", "wiki.editor.content") });
  await expect(content).toContainText("Diese Seite regelt das Vorgehen.");
  const toolbar = editor.getByRole("toolbar", { name: text("de", "wiki.editor.toolbar") });
  const bold = toolbar.getByRole("button", { name: text("de", "wiki.editor.tools.bold"), exact: true });
  await expect(bold).toHaveAttribute("aria-pressed", "false");
  await expectAccessible(page, "wiki editor");

  // A new paragraph at the end, in bold, then a note callout around it. The page ends with a
  // table: the editor keeps an empty paragraph after it, where one clicks to write below the
  // table (Ctrl+End would put the caret into the table's last cell, wherever the browser likes).
  await content.locator(":scope > p").last().click();
  await bold.click();
  await expect(bold).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.type("Neu: Spender monatlich prüfen.");
  await toolbar.getByRole("button", { name: text("de", "wiki.editor.tools.note"), exact: true }).click();

  // A picture, uploaded from the toolbar with its description.
  await page.keyboard.press("Control+End");
  await toolbar.getByRole("button", { name: text("de", "wiki.editor.tools.image"), exact: true }).click();
  const imageDialog = page.getByRole("dialog", { name: text("de", "wiki.editor.imageTitle") });
  await imageDialog
    .locator('input[type="file"]')
    .setInputFiles({ name: "spender.png", mimeType: "image/png", buffer: PNG });
  await imageDialog.getByRole("textbox", { name: text("de", "wiki.editor.imageAlt") }).fill("Spender an der Tür");
  await imageDialog.getByRole("button", { name: exactly("de", "wiki.editor.imageInsert") }).click();
  await expect(imageDialog).toBeHidden();
  await expect(content.getByRole("img", { name: "Spender an der Tür" })).toBeVisible();
  await editor.getByRole("textbox", { name: text("de", "wiki.editor.summary") }).fill("Spenderprüfung ergänzt");
  await editor.getByRole("button", { name: exactly("de", "wiki.editor.save") }).click();
  await expect(page.getByText(text("de", "success.wikiChanged"))).toBeVisible();

  // The new revision is shown (a draft: not released yet) with the note rendered as a callout.
  await expect(page.getByTestId("wiki-revision-number")).toHaveText(text("de", "wiki.meta.revision", { number: 2 }));
  await expect(page.getByTestId("wiki-draft")).toBeVisible();
  const note = page.getByTestId("wiki-html").locator('[data-callout="note"]');
  await expect(note).toContainText(text("de", "wiki.callout.note"));
  await expect(note.locator("strong")).toHaveText("Neu: Spender monatlich prüfen.");
  // The uploaded picture loads with the session's token.
  const picture = page.getByTestId("wiki-html").getByRole("img", { name: "Spender an der Tür" });
  await expect(picture).toHaveAttribute("src", /^\/api\/static\/wiki\/\d+\?token=/);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(4);

  // The history: both revisions, the two newest picked, their diff readable without colour.
  // The toast is gone before the dialog is scanned: the scan is about the dialog.
  await expect(page.getByText(text("de", "success.wikiChanged"))).toBeHidden();
  await page.getByRole("button", { name: exactly("de", "wiki.admin.history") }).click();
  const history = page.getByRole("dialog", { name: text("de", "wiki.history.title", { title: created.title }) });
  await expect(history.getByTestId("wiki-revision")).toHaveCount(2);
  await expect(history.locator('[data-testid="wiki-revision"][data-number="2"]')).toContainText(
    "Spenderprüfung ergänzt",
  );
  await settled(history);
  await expectAccessible(page, "wiki history");
  await history.getByRole("button", { name: exactly("de", "wiki.history.compare") }).click();
  const diff = history.getByTestId("wiki-diff");
  const added = diff.locator('[data-type="added"]').filter({ hasText: "Spender monatlich prüfen" });
  await expect(added).toHaveCount(1);
  await expect(added).toContainText(text("de", "wiki.history.line.added"));
  await expect(added).toContainText("+");
  await expectAccessible(page, "wiki diff");

  // Revision 1 made the newest again: a third revision, the history kept.
  await history.getByRole("button", { name: exactly("de", "wiki.history.back") }).click();
  await history.getByRole("button", { name: text("de", "wiki.history.restoreNumber", { number: 1 }) }).click();
  const restore = page.getByRole("dialog", { name: text("de", "wiki.history.restoreTitle", { number: 1 }) });
  await restore.getByRole("button", { name: exactly("de", "wiki.history.restore") }).click();
  await expect(page.getByText(text("de", "wiki.history.restored", { revision: 1, number: 3 }))).toBeVisible();
  await expect(page.getByTestId("wiki-revision-number")).toHaveText(text("de", "wiki.meta.revision", { number: 3 }));
  await expect(page.getByTestId("wiki-html")).not.toContainText("Spender monatlich prüfen");

  // The history dialog gives the focus back to what opened it.
  await page.getByRole("button", { name: exactly("de", "wiki.admin.history") }).click();
  await expect(history.getByTestId("wiki-revision")).toHaveCount(3);
  await page.keyboard.press("Escape");
  await expect(history).toBeHidden();
  await expect(page.getByRole("button", { name: exactly("de", "wiki.admin.history") })).toBeFocused();
});

test("a Super-Admin translates a page beside its German original; readers get it once published, and the German when the German changes @phone", async ({
  page,
}) => {
  const manager = await createUser(page.request, { roles: ["contentmanager"], name: "Clara" });
  const created = await createPage(page.request, manager, { release: true });
  const slugPath = created.path.replace("/wiki/", "");
  const draftOf = async () =>
    (await callApi(page.request, manager, "GET", `/wiki/page/${slugPath}?draft=true`)) as { version: number };
  const release = async () =>
    callApi(page.request, manager, "POST", `/wiki/pages/${created.id}/release`, { version: (await draftOf()).version });

  await openAs(page, manager, `${created.path}?edit=1`, manager.password);
  const editor = page.getByTestId("wiki-editor");
  const content = editor.getByRole("textbox", { name: text("de", "wiki.editor.content") });
  await expect(content).toContainText("Diese Seite regelt das Vorgehen.");
  await editor.getByLabel(exactly("de", "wiki.editor.language")).click();
  await page
    .getByRole("option", { name: text("de", "wiki.editor.newLanguage", { language: "English" }), exact: true })
    .click();
  // Beside the translation, the German original, binding and read only.
  await expect(editor.getByTestId("wiki-new-translation")).toBeVisible();
  const original = editor.getByTestId("wiki-translation-original");
  await expect(original).toContainText(text("de", "wiki.editor.original"));
  await expect(original).toContainText("Diese Seite regelt das Vorgehen.");
  await editor.getByRole("textbox", { name: text("de", "wiki.editor.pageTitle") }).fill("Procedure for hand rub");
  await content.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("This page governs the procedure.");
  await editor.getByText(text("de", "authoring.translations.statuses.published"), { exact: true }).click();
  await expectAccessible(page, "a wiki translation beside its German original");
  await expectNoSidewaysScroll(page, "a wiki translation beside its German original");
  await editor.getByRole("button", { name: exactly("de", "wiki.editor.save") }).click();
  await expect(page.getByText(text("de", "success.wikiChanged"))).toBeVisible();
  await release();

  // A reader asking for English gets it once released.
  const { employee } = await createTeam(page.request, ["employee"]);
  await openAs(page, employee, `${created.path}?lang=en`);
  await expectPageHeading(page, "Procedure for hand rub", false);
  await expect(page.getByTestId("wiki-html")).toContainText("This page governs the procedure.");

  // The German changes and is released: the English is outdated, the reader gets German and why.
  await callApi(page.request, manager, "PUT", `/wiki/pages/${created.id}`, {
    version: (await draftOf()).version,
    lang: "de",
    title: created.title,
    markdown: "## Zweck\n\nDiese Seite regelt das Vorgehen neu.",
  });
  await release();
  await page.reload();
  await expectPageHeading(page, created.title, false);
  await expect(page.getByTestId("wiki-language-note")).toHaveText(
    text("de", "wiki.fallback.outdated", { language: "English" }),
  );
  await expectAccessible(page, "a page whose translation is outdated");

  // The editor says so, beside the new German; dark theme too.
  await openAs(page, manager, `${created.path}?edit=1&lang=en`, manager.password);
  await expect(editor.getByTestId("wiki-translation-outdated")).toHaveText(text("de", "wiki.editor.outdated"));
  await expect(editor.getByTestId("wiki-translation-original")).toContainText("Diese Seite regelt das Vorgehen neu.");
  await applyPreference(page, "theme", "dark");
  await expectAccessible(page, "an outdated wiki translation in the editor, dark");
});

test("a learner who takes trainings in Turkish reads the handbook in Turkish; an Arabic page reads right to left @phone", async ({
  page,
}) => {
  const manager = await createUser(page.request, { roles: ["contentmanager"], name: "Clara" });
  const created = await createPage(page.request, manager, { markdown: "Mit Seife waschen, gründlich abspülen." });
  let version = created.version;
  for (const [lang, title, markdown] of [
    ["tr", "Elleri yıkamak", "Sabunla yıkayın, iyice durulayın."],
    ["ar", "غسل اليدين", "اغسل يديك بالصابون واشطفهما جيدًا."],
  ] as const) {
    const saved = await callApi(page.request, manager, "PUT", `/wiki/pages/${created.id}`, {
      version,
      lang,
      title,
      markdown,
      status: "published",
    });
    version = saved.version;
  }
  await callApi(page.request, manager, "POST", `/wiki/pages/${created.id}/release`, { version });

  const { employee } = await createTeam(page.request, ["employee"]);
  await callApi(page.request, employee, "PATCH", `/preferences/${employee.id}`, {
    property: "content_language",
    value: "tr",
  });
  // German interface, Turkish content: the page in Turkish, marked as Turkish.
  await openAs(page, employee, created.path);
  await expectPageHeading(page, "Elleri yıkamak", false);
  await expect(page.getByRole("heading", { level: 1 }).locator('[lang="tr"]')).toHaveText("Elleri yıkamak");
  const article = page.getByRole("article");
  await expect(article).toHaveAttribute("lang", "tr");
  await expect(article).toContainText("Sabunla yıkayın");
  // The German version is binding, and one tap away.
  await expect(page.getByTestId("wiki-translation-note")).toContainText(
    text("de", "wiki.translationNote", { language: "Türkçe – Türkisch" }),
  );
  await expectAccessible(page, "a wiki page in Turkish");

  // The page's languages are offered by name; Arabic reads right to left.
  await page.getByTestId("wiki-languages").click();
  await page.getByRole("option", { name: /^العربية – Arabisch$/ }).click();
  await expectPageHeading(page, "غسل اليدين");
  await expect(article).toHaveAttribute("dir", "rtl");
  expect(
    await article
      .locator("p")
      .first()
      .evaluate((el) => getComputedStyle(el).direction),
  ).toBe("rtl");
  await expectAccessible(page, "a wiki page in Arabic");
  await expectNoSidewaysScroll(page, "a wiki page in Arabic");
});

test("a save that meets a newer version keeps the editor's text and can save over it", async ({ page }) => {
  const manager = await createUser(page.request, { roles: ["contentmanager"], name: "Clara" });
  const created = await createPage(page.request, manager);
  await openAs(page, manager, `${created.path}?draft=true`, manager.password);
  await page.getByRole("button", { name: exactly("de", "wiki.admin.edit") }).click();
  const editor = page.getByTestId("wiki-editor");
  const content = editor.getByRole("textbox", { name: text("de", "wiki.editor.content") });
  await expect(content).toContainText("Diese Seite regelt das Vorgehen.");
  await content.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Mein Absatz.");

  // Meanwhile a colleague saves the page.
  const res = await page.request.put(`/api/wiki/pages/${created.id}`, {
    headers: await headersOf(page.request, manager),
    data: { version: created.version, lang: "de", title: created.title, markdown: "Fremder Text." },
  });
  expect(res.status(), await res.text()).toBe(200);

  await editor.getByRole("button", { name: exactly("de", "wiki.editor.save") }).click();
  const conflict = page.getByTestId("wiki-conflict");
  await expect(conflict).toBeVisible();
  await expect(content).toContainText("Mein Absatz.");
  await expect(conflict.getByRole("link", { name: text("de", "wiki.editor.conflictOpen") })).toHaveAttribute(
    "target",
    "_blank",
  );
  await conflict.getByRole("button", { name: exactly("de", "wiki.editor.conflictShowText") }).click();
  await expect(conflict.getByTestId("wiki-conflict-text")).toContainText("Fremder Text.");
  await expectAccessible(page, "wiki editor with a conflict");
  await conflict.getByRole("button", { name: exactly("de", "wiki.editor.conflictOverwrite") }).click();
  await expect(page.getByText(text("de", "success.wikiChanged"))).toBeVisible();
  await expect(page.getByTestId("wiki-html")).toContainText("Mein Absatz.");
  await expect(page.getByTestId("wiki-revision-number")).toHaveText(text("de", "wiki.meta.revision", { number: 3 }));
});

test("an administrator writes a facility page that requires confirmation, releases it, sees who confirmed; another facility cannot see it @phone", async ({
  page,
}) => {
  const team = await createTeam(page.request, ["administrator", "employee"]);
  const other = await createTeam(page.request, ["employee"]);
  const title = `Notfallplan ${unique()}`;

  // A new page from the tree: it opens in the editor. The dialog is opened in English; the German
  // run goes on in it.
  await openAs(page, team.administrator, "/wiki", team.administrator.password);
  await expect(page.getByRole("button", { name: exactly("de", "wiki.new.page") })).toBeVisible();
  /** The dialog's topic select (a Mantine Select). */
  const topicSelect = (scope: Locator, lang: string) =>
    scope
      .getByRole("textbox", { name: text(lang, "wiki.new.topicLabel") })
      .or(scope.getByRole("combobox", { name: text(lang, "wiki.new.topicLabel") }))
      .first();
  await alsoInEnglish(page, "the wiki tree and the new page dialog", async (t) => {
    await page.getByRole("button", { name: t("wiki.new.page"), exact: true }).click();
    const shown = page.getByRole("dialog", { name: t("wiki.new.pageTitle") });
    await expect(shown.getByText(t("wiki.scope.facilityOnly"))).toBeVisible();
    await expect(topicSelect(shown, "en")).toBeVisible();
    await expect(shown.getByRole("textbox", { name: t("wiki.new.title") })).toBeVisible();
    await expect(shown.getByRole("switch", { name: t("wiki.editor.requiresConfirmation") })).toBeVisible();
    await expect(shown.getByRole("button", { name: t("wiki.new.createPage"), exact: true })).toBeDisabled();
  });
  const dialog = page.getByRole("dialog", { name: text("de", "wiki.new.pageTitle") });
  await expect(dialog.getByText(text("de", "wiki.scope.facilityOnly"))).toBeVisible();
  await topicSelect(dialog, "de").click();
  await page.getByRole("option", { name: "Hygiene und Infektionsschutz", exact: true }).click();
  await dialog.getByRole("textbox", { name: text("de", "wiki.new.title") }).fill(title);
  await dialog.getByRole("switch", { name: text("de", "wiki.editor.requiresConfirmation") }).check();
  await settled(dialog);
  await expectAccessible(page, "new wiki page dialog");
  await dialog.getByRole("button", { name: exactly("de", "wiki.new.createPage") }).click();
  await expect(page).toHaveURL(/\/wiki\/hygiene\/notfallplan-[a-z0-9-]+\?/);
  const pagePath = new URL(page.url()).pathname;
  const editor = page.getByTestId("wiki-editor");
  const content = editor.getByRole("textbox", { name: text("de", "wiki.editor.content") });
  // Editable once the new page's revision has loaded (what is typed before would be replaced).
  await expect(content).toHaveAttribute("contenteditable", "true");
  await content.click();
  await page.keyboard.type("Im Notfall zuerst die Wohnbereichsleitung anrufen.");
  // Saved in English (the German toast: the editor's own tests above).
  await alsoInEnglish(page, "the saved page", async (t) => {
    await expect(editor.getByRole("textbox", { name: t("wiki.editor.content") })).toContainText(
      "Im Notfall zuerst die Wohnbereichsleitung anrufen.",
    );
    await editor.getByRole("button", { name: t("wiki.editor.save"), exact: true }).click();
    await expect(page.getByText(t("success.wikiChanged"))).toBeVisible();
    await expect(page.getByRole("button", { name: t("wiki.admin.release", { number: 2 }), exact: true })).toBeVisible();
  });

  // Released: the dialog says everyone is asked to confirm.
  await page.getByRole("button", { name: exactly("de", "wiki.admin.release", { number: 2 }) }).click();
  const release = page.getByRole("dialog", { name: text("de", "wiki.admin.releaseTitle", { number: 2 }) });
  await expect(release).toContainText(text("de", "wiki.admin.releaseConfirmAgain"));
  await settled(release);
  await alsoInEnglish(page, "the release dialog", async (t) => {
    const shown = page.getByRole("dialog", { name: t("wiki.admin.releaseTitle", { number: 2 }) });
    await expect(shown).toContainText(t("wiki.admin.releaseConfirmAgain"));
    await expect(shown.getByRole("button", { name: t("wiki.admin.releaseConfirm"), exact: true })).toBeVisible();
  });
  await release.getByRole("button", { name: exactly("de", "wiki.admin.releaseConfirm") }).click();
  const released = page.getByText(text("de", "wiki.admin.releasedToast", { number: 2 }), { exact: true });
  await expect(released).toBeVisible();
  const panel = page.getByTestId("wiki-confirmations");
  await expect(
    panel.locator(`[data-testid="wiki-confirmation-row"]`).filter({ hasText: team.employee.surname }),
  ).toHaveAttribute("data-state", "missing");

  // The employee of the facility confirms it.
  await openAs(page, team.employee, pagePath, team.employee.password);
  await expectPageHeading(page, title, false);
  await page.getByRole("button", { name: exactly("de", "wiki.confirm.button") }).click();
  await expect(page.getByTestId("wiki-confirmed")).toBeFocused();

  // The administrator sees who confirmed, in the overview's green.
  await openAs(page, team.administrator, pagePath, team.administrator.password);
  const row = page.getByTestId("wiki-confirmation-row").filter({ hasText: team.employee.surname });
  await expect(row).toHaveAttribute("data-state", "confirmed");
  await expect(row.locator("[data-colour]")).toHaveAttribute("data-colour", "green");
  await expect(page.getByTestId("wiki-confirmations-count")).toContainText("1");
  await expect(released).toBeHidden();
  const exportLink = (lang: string) =>
    page.getByTestId("wiki-confirmations").getByRole("link", { name: text(lang, "wiki.confirmations.export") });
  await expect(exportLink("de")).toHaveAttribute("href", /\/confirmations\/export\?(.*&)?token=/);
  await expectAccessible(page, "wiki page with the confirmations");
  await expectNothingCutOff(page, "the confirmation table");
  await alsoInEnglish(page, "wiki page with the confirmations", async () => {
    await expect(exportLink("en")).toHaveAttribute("href", /\/confirmations\/export\?(.*&)?token=/);
    await expect(row).toHaveAttribute("data-state", "confirmed");
  });

  // An employee of another facility: not found.
  await openAs(page, other.employee, pagePath, other.employee.password);
  await expect(page.getByRole("heading", { name: text("de", "notFound.title") })).toBeVisible();
  await alsoInEnglish(page, "not found", async (t) => {
    await expect(page.getByRole("heading", { name: t("notFound.title") })).toBeVisible();
  });
  const res = await page.request.get(`/api/wiki/page${pagePath.slice("/wiki".length)}`, {
    headers: await headersOf(page.request, other.employee),
  });
  expect(res.status()).toBe(404);
});

test("the wiki screens and dialogs pass axe", async ({ page }) => {
  const team = await createTeam(page.request, ["administrator", "employee"]);
  const created = await createPage(page.request, team.administrator, {
    facility: team.facility.id,
    requiresConfirmation: true,
    release: true,
  });
  // A second revision, so the history has two to compare.
  const saved = await page.request.put(`/api/wiki/pages/${created.id}`, {
    headers: await headersOf(page.request, team.administrator),
    data: {
      version: created.version,
      lang: "de",
      title: created.title,
      markdown: "## Zweck\n\nGeändert.",
      summary: "kürzer",
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  await openAs(page, team.employee, created.path, team.employee.password);
  await expect(page.getByTestId("wiki-confirm")).toBeVisible();
  await expectAccessible(page, "wiki page for an employee");

  await openAs(page, team.administrator, "/wiki", team.administrator.password);
  await expect(page.getByTestId("wiki-tree")).toBeVisible();
  await expectAccessible(page, "wiki tree");
  await page.getByRole("button", { name: exactly("de", "wiki.new.topic") }).click();
  await settled(page.getByRole("dialog", { name: text("de", "wiki.new.topicTitle") }));
  await expectAccessible(page, "new topic dialog");
  await page.keyboard.press("Escape");

  await goInApp(page, created.path);
  await expect(page.getByTestId("wiki-confirmations")).toBeVisible();
  await expect(page.getByTestId("wiki-confirmation-row").first()).toBeVisible();
  await expectAccessible(page, "wiki page with confirmations");

  await page.getByRole("button", { name: exactly("de", "wiki.admin.history") }).click();
  const history = page.getByRole("dialog");
  await expect(history.getByTestId("wiki-revision")).toHaveCount(2);
  await settled(history);
  await expectAccessible(page, "wiki history");
  await history.getByRole("button", { name: exactly("de", "wiki.history.compare") }).click();
  await expect(history.getByTestId("wiki-diff")).toBeVisible();
  await expectAccessible(page, "wiki diff");
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: exactly("de", "wiki.admin.release", { number: 2 }) }).click();
  await settled(page.getByRole("dialog", { name: text("de", "wiki.admin.releaseTitle", { number: 2 }) }));
  await expectAccessible(page, "release dialog");
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: exactly("de", "wiki.admin.edit") }).click();
  await expect(
    page.getByTestId("wiki-editor").getByRole("textbox", { name: text("de", "wiki.editor.content") }),
  ).toContainText("Geändert.");
  await expectAccessible(page, "wiki editor");
  await page
    .getByTestId("wiki-toolbar")
    .getByRole("button", { name: text("de", "wiki.editor.tools.image") })
    .click();
  await settled(page.getByRole("dialog", { name: text("de", "wiki.editor.imageTitle") }));
  await expectAccessible(page, "image dialog");
  await page.keyboard.press("Escape");
});
