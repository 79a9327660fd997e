import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import {
  applyPreference,
  callApi,
  createCommonTraining,
  createTeam,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  goInApp,
  openAs,
  setLanguage,
  text,
} from "./helpers";

/*
 * Content in the learner's language (issue 31): a question with published translations comes in
 * the learner's language — the interface's, or one they chose for trainings that the interface
 * does not speak (Turkish) — marked with its language, and can be switched to the binding German
 * original and back with one tap; the explanation follows the language the question was shown in.
 */

const GERMAN = "Wie lange reiben Sie die Hände mit Desinfektionsmittel ein?";
const TRANSLATED = {
  en: {
    text: "How long do you rub your hands with disinfectant?",
    answers: ["At least 30 seconds", "Five seconds"],
    explanation: "<p>At least 30 seconds, until the hands are dry.</p>",
  },
  tr: {
    text: "Ellerinizi dezenfektanla ne kadar süre ovuşturursunuz?",
    answers: ["En az 30 saniye", "Beş saniye"],
    explanation: "<p>Eller kuruyana kadar en az 30 saniye.</p>",
  },
  ar: {
    text: "كم من الوقت تفرك يديك بالمطهر؟",
    answers: ["30 ثانية على الأقل", "خمس ثوانٍ"],
    explanation: "<p>30 ثانية على الأقل، حتى تجف اليدان.</p>",
  },
} as const;

/** The question in German, as the editor sends it. */
const GERMAN_QUESTION = {
  type: "single",
  text: GERMAN,
  answers: [
    { text: "Mindestens 30 Sekunden", correct: true },
    { text: "Fünf Sekunden", correct: false },
  ],
  explanation: "<p>Mindestens 30 Sekunden, bis die Hände trocken sind.</p>",
  hint: null,
  media: null,
};

/** A common training of a new content manager with one draft questionnaire holding the German question. */
async function germanQuestion(request: APIRequestContext) {
  const common = await createCommonTraining(request);
  const cm = common.contentManager;
  const qn = await callApi(request, cm, "POST", "/authoring/questionnaires", {
    training_id: common.training,
    name: "Händehygiene",
  });
  const saved = await callApi(request, cm, "POST", `/authoring/questionnaires/${qn.id}/questions`, GERMAN_QUESTION);
  const question = saved.questionnaire.questions[0] as { id: number; answers: { id: number }[] };
  return { common, cm, qn: qn.id as number, question };
}

/** A common training with one published question in German, translated into English, Turkish and Arabic. */
async function translatedQuestion(request: APIRequestContext): Promise<string> {
  const { common, cm, qn, question } = await germanQuestion(request);
  for (const lang of ["en", "tr", "ar"] as const) {
    const t = TRANSLATED[lang];
    await callApi(request, cm, "PUT", `/authoring/questions/${question.id}/translations/${lang}`, {
      text: t.text,
      answers: question.answers.map((a, i) => ({ id: a.id, text: t.answers[i] })),
      explanation: t.explanation,
      hint: null,
      status: "published",
    });
  }
  await callApi(request, cm, "POST", `/authoring/questionnaires/${qn}/publish`);
  return `/topic/${common.topic}/training/${common.training}/questionnaire/${qn}`;
}

/** Through the quiz's start to its question, in the interface language `ui`. */
async function toQuestion(page: Page, ui: string): Promise<void> {
  await page.getByText(text(ui, "quiz.independence.confirm")).click();
  await page.getByRole("button", { name: exactly(ui, "quiz.goToQuestion") }).click();
}

test("a learner gets a question in their language and switches it to the German original and back @phone", async ({
  page,
}) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  await setLanguage(page.request, employee, "en");
  const quiz = await translatedQuestion(page.request);

  await openAs(page, employee, quiz);
  await toQuestion(page, "en");
  const shown = page.getByTestId("question-text");
  await expect(shown).toHaveText(TRANSLATED.en.text);
  await expect(shown).toHaveAttribute("lang", "en");
  await expect(page.getByText("At least 30 seconds", { exact: true })).toBeVisible();
  const toGerman = page.getByRole("button", { name: exactly("en", "quiz.showOriginal") });
  await expectAccessible(page, "a translated question");
  await expectNoSidewaysScroll(page, "a translated question");

  // One tap: the whole question in German, marked as German; the focus stays on the switch.
  await toGerman.click();
  await expect(shown).toHaveText(GERMAN);
  await expect(shown).toHaveAttribute("lang", "de");
  await expect(page.getByText("Mindestens 30 Sekunden", { exact: true })).toBeVisible();
  const back = page.getByRole("button", { name: exactly("en", "quiz.showTranslation") });
  await expect(back).toBeFocused();
  await expectAccessible(page, "the German original of a translated question");
  await back.click();
  await expect(shown).toHaveAttribute("lang", "en");

  // Answered in English: right by its answer, the explanation in English.
  await page.getByText("At least 30 seconds", { exact: true }).click();
  await page.getByRole("button", { name: exactly("en", "quiz.continue") }).click();
  await expect(page.getByTestId("feedback-popup")).toBeVisible();
  const explanation = page.getByTestId("explanation");
  await expect(explanation).toContainText("At least 30 seconds, until the hands are dry.");
  await expect(explanation.locator('[lang="en"]')).toBeVisible();
});

test("a learner with a German interface takes the training in Turkish, chosen on the profile @phone", async ({
  page,
}) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  const quiz = await translatedQuestion(page.request);

  await openAs(page, employee, "/profile");
  const choice = page.getByRole("combobox", { name: exactly("de", "profile.contentLanguage.title") });
  await expect(choice).toHaveValue("");
  await choice.selectOption("tr");
  await expect(page.getByText(text("de", "success.profileChanged"))).toBeVisible();
  await expectAccessible(page, "the profile with the language of the training content");
  await expectNoSidewaysScroll(page, "the profile with the language of the training content");

  await goInApp(page, quiz);
  await toQuestion(page, "de");
  const shown = page.getByTestId("question-text");
  await expect(shown).toHaveText(TRANSLATED.tr.text);
  await expect(shown).toHaveAttribute("lang", "tr");
  await expect(page.getByText("En az 30 saniye", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: exactly("de", "quiz.showOriginal") }).click();
  await expect(shown).toHaveText(GERMAN);
  await page.getByRole("button", { name: exactly("de", "quiz.showTranslation") }).click();
  await expect(shown).toHaveText(TRANSLATED.tr.text);
});

test("a question in Arabic reads right to left, and its German original left to right @phone", async ({ page }) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  const quiz = await translatedQuestion(page.request);
  await callApi(page.request, employee, "PATCH", `/preferences/${employee.id}`, {
    property: "content_language",
    value: "ar",
  });
  await openAs(page, employee, quiz);
  await toQuestion(page, "de");
  const shown = page.getByTestId("question-text");
  await expect(shown).toHaveText(TRANSLATED.ar.text);
  await expect(shown).toHaveAttribute("lang", "ar");
  await expect(shown).toHaveAttribute("dir", "rtl");
  const answer = page.getByText(TRANSLATED.ar.answers[0], { exact: true });
  await expect(answer).toBeVisible();
  expect(await answer.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
  await expectAccessible(page, "a question in Arabic");
  await expectNoSidewaysScroll(page, "a question in Arabic");
  await page.getByRole("button", { name: exactly("de", "quiz.showOriginal") }).click();
  await expect(shown).toHaveText(GERMAN);
  await expect(shown).not.toHaveAttribute("dir", "rtl");
});

test("a content manager writes a question's translation beside the German original; a German change outdates it @phone", async ({
  page,
}) => {
  const { cm, qn, question } = await germanQuestion(page.request);
  const questionId = question.id;

  await openAs(page, cm, `/authoring/questionnaire/${qn}`);
  await page.getByRole("button", { name: exactly("de", "authoring.translations.open", { n: 1 }) }).click();
  const dialog = page.getByRole("dialog", { name: exactly("de", "authoring.translations.title") });
  await expect(dialog.getByTestId("translation-original")).toContainText(GERMAN);
  const questionField = dialog.getByRole("textbox", { name: text("de", "authoring.questionText") });
  await expect(questionField).toBeFocused();
  await dialog.getByRole("combobox", { name: text("de", "authoring.translations.language") }).selectOption("tr");
  // Each field carries the translation's language; the labels and buttons keep the interface's.
  await expect(questionField).toHaveAttribute("lang", "tr");
  await expect(dialog.getByTestId("explanation-editor")).toHaveAttribute("lang", "tr");
  expect(await questionField.evaluate((el) => el.closest("[lang]:not(textarea)")?.getAttribute("lang"))).not.toBe("tr");
  const turkish = TRANSLATED.tr;
  await questionField.fill(turkish.text);
  for (const [i, answer] of turkish.answers.entries()) {
    await dialog.getByRole("textbox", { name: text("de", "authoring.answerN", { n: i + 1 }) }).fill(answer);
  }
  await dialog.getByTestId("explanation-editor").click();
  await page.keyboard.type("Eller kuruyana kadar en az 30 saniye.");
  await dialog.getByText(text("de", "authoring.translations.statuses.published"), { exact: true }).click();
  await expectAccessible(page, "the translation editor");
  await expectNoSidewaysScroll(page, "the translation editor");
  await dialog.getByRole("button", { name: exactly("de", "common.save") }).click();
  await expect(page.getByText(text("de", "authoring.translations.saved", { language: "Türkisch" }))).toBeVisible();
  const written = await callApi(page.request, cm, "GET", `/authoring/questions/${questionId}/translations`);
  expect(written.translations).toEqual([
    expect.objectContaining({ lang: "tr", status: "published", outdated: false, text: turkish.text }),
  ]);
  await applyPreference(page, "theme", "dark");
  await expectAccessible(page, "the translation editor, dark");

  // The German explanation changes: the Turkish is outdated, and the editor says so.
  await callApi(page.request, cm, "PUT", `/authoring/questions/${questionId}`, {
    ...GERMAN_QUESTION,
    explanation: "<p>Mindestens 30 Sekunden lang.</p>",
  });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.reload();
  await page.getByRole("button", { name: exactly("de", "authoring.translations.open", { n: 1 }) }).click();
  await dialog.getByRole("combobox", { name: text("de", "authoring.translations.language") }).selectOption("tr");
  await expect(dialog.getByTestId("translation-outdated")).toHaveText(text("de", "authoring.translations.outdated"));
  await expectAccessible(page, "an outdated translation, dark");

  // The preview in the chosen language: the question as translated, with where it stands.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: exactly("de", "authoring.preview.button") }).click();
  const preview = page.getByRole("dialog", { name: exactly("de", "authoring.preview.title") });
  await preview.getByRole("combobox", { name: text("de", "authoring.preview.language") }).selectOption("tr");
  await preview.getByRole("button", { name: exactly("de", "quiz.goToQuestion") }).click();
  const previewed = preview.getByTestId("question-text");
  await expect(previewed).toHaveText(turkish.text);
  await expect(previewed).toHaveAttribute("lang", "tr");
  await expect(preview.getByTestId("preview-translation")).toHaveText(
    text("de", "authoring.preview.status", { status: text("de", "authoring.translations.outdatedShort") }),
  );
  await expectAccessible(page, "the preview in Turkish, dark");
});

test("a content manager translates the training's name in place, downloads its XLIFF for the translator and brings the translated file back; a Turkish learner sees both @phone", async ({
  page,
}) => {
  const { common, cm, qn, question } = await germanQuestion(page.request);
  const questionId = question.id;

  await openAs(page, cm, "/authoring");
  const training = page.getByTestId("authoring-training").filter({ hasText: common.name });
  await training.getByRole("button", { name: exactly("de", "authoring.trainingTranslations.open") }).click();
  const dialog = page.getByRole("dialog", {
    name: exactly("de", "authoring.trainingTranslations.title", { name: common.name }),
  });
  await dialog.getByRole("combobox", { name: text("de", "authoring.translations.language") }).selectOption("tr");
  // The names learners choose from, translated in place: the training's.
  const TURKISH_NAME = "Alarm planı eğitimi";
  const row = dialog
    .getByTestId("name-translation")
    .filter({ hasText: `${text("de", "authoring.names.kinds.training")}: ${common.name}` });
  const nameField = row.getByRole("textbox", {
    name: text("de", "authoring.names.translation", { language: "Türkisch" }),
  });
  await expect(nameField).toHaveAttribute("lang", "tr");
  await nameField.fill(TURKISH_NAME);
  await row.getByRole("combobox", { name: text("de", "authoring.translations.status") }).selectOption("published");
  const saveName = row.getByRole("button", { name: exactly("de", "common.save") });
  await saveName.click();
  await expect(page.getByText(text("de", "authoring.names.saved", { language: "Türkisch" }))).toBeVisible();
  await expect(saveName).toBeFocused();
  await expectAccessible(page, "the training's names in Turkish");
  await expectNoSidewaysScroll(page, "the training's names in Turkish");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("link", { name: exactly("de", "authoring.trainingTranslations.download.xliff") }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\(tr\)\.xlf$/);
  const xliff = fs.readFileSync(await download.path(), "utf8");
  expect(xliff).toContain('trgLang="tr"');
  expect(xliff).toContain(`<unit id="q${questionId}"`);

  // The names come first; the training's carries the name just saved.
  expect(xliff).toContain(`<unit id="training${common.training}"`);
  expect(xliff).toContain(`<target xml:space="preserve">${TURKISH_NAME}</target>`);
  // The translator fills every segment of the question in and marks it final.
  const turkish = TRANSLATED.tr;
  const targets = [turkish.text, ...turkish.answers, turkish.explanation];
  let i = 0;
  const at = xliff.indexOf(`<unit id="q${questionId}"`);
  const filled =
    xliff.slice(0, at) +
    xliff
      .slice(at)
      .replace(
        /(<segment id="[^"]+") state="initial">(\s*<source[^>]*>[\s\S]*?<\/source>)/g,
        (_m, open: string, source: string) =>
          `${open} state="final">${source}<target>${(targets[i++] ?? "").replace(/&/g, "&amp;").replace(/</g, "&lt;")}</target>`,
      );
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cc-xliff-")), "haende-tr.xlf");
  fs.writeFileSync(file, filled);
  const [chooser] = await Promise.all([
    page.waitForEvent("filechooser"),
    dialog.getByRole("button", { name: exactly("de", "authoring.trainingTranslations.choose") }).click(),
  ]);
  await chooser.setFiles(file);
  const heading = dialog.getByRole("heading", {
    name: exactly("de", "authoring.trainingTranslations.will", { count: 1 }),
  });
  await expect(heading).toBeFocused();
  await expectAccessible(page, "the translation file's preview");
  await expectNoSidewaysScroll(page, "the translation file's preview");
  await applyPreference(page, "theme", "dark");
  await expectAccessible(page, "the translation file's preview, dark");
  // Nothing is written before the author applies it.
  expect(
    (await callApi(page.request, cm, "GET", `/authoring/questions/${questionId}/translations`)).translations,
  ).toEqual([]);
  await dialog
    .getByRole("button", { name: exactly("de", "authoring.trainingTranslations.apply", { count: 1 }) })
    .click();
  await expect(page.getByText(text("de", "authoring.trainingTranslations.done", { count: 1 }))).toBeVisible();
  await expect(dialog).toBeHidden();
  const written = await callApi(page.request, cm, "GET", `/authoring/questions/${questionId}/translations`);
  expect(written.translations).toEqual([
    expect.objectContaining({ lang: "tr", status: "published", outdated: false, text: turkish.text }),
  ]);

  // A learner who takes trainings in Turkish finds the training under its Turkish name, marked as Turkish.
  await callApi(page.request, cm, "POST", `/authoring/questionnaires/${qn}/publish`);
  const { employee } = await createTeam(page.request, ["employee"]);
  await callApi(page.request, employee, "PATCH", `/preferences/${employee.id}`, {
    property: "content_language",
    value: "tr",
  });
  await openAs(page, employee, `/topic/${common.topic}/training/${common.training}`);
  const title = page.getByRole("heading", { level: 1 });
  await expect(title).toHaveText(TURKISH_NAME);
  await expect(title.locator('[lang="tr"]')).toHaveText(TURKISH_NAME);
});

test("a content manager asks the machine for a suggestion beside what they typed, which learners do not see until published @phone", async ({
  page,
}) => {
  const { cm, qn, question } = await germanQuestion(page.request);
  await openAs(page, cm, `/authoring/questionnaire/${qn}`);
  await page.getByRole("button", { name: exactly("de", "authoring.translations.open", { n: 1 }) }).click();
  const dialog = page.getByRole("dialog", { name: exactly("de", "authoring.translations.title") });
  const questionField = dialog.getByRole("textbox", { name: text("de", "authoring.questionText") });
  await expect(questionField).toBeFocused();
  await dialog.getByRole("combobox", { name: text("de", "authoring.translations.language") }).selectOption("tr");
  // A new translation, half typed and not saved: the machine fills only the rest and keeps this.
  await questionField.fill(TRANSLATED.tr.text);
  await dialog.getByRole("button", { name: exactly("de", "authoring.translations.suggest") }).click();
  // The test peer's "translation": the language in brackets before the German.
  await expect(page.getByText(text("de", "authoring.translations.suggested", { count: 3 }))).toBeVisible();
  await expect(questionField).toHaveValue(TRANSLATED.tr.text);
  await expect(questionField).toBeFocused();
  await expect(dialog.getByRole("textbox", { name: text("de", "authoring.answerN", { n: 1 }) })).toHaveValue(
    "[tr] Mindestens 30 Sekunden",
  );
  await expect(dialog.getByTestId("explanation-editor")).toContainText("[tr] Mindestens 30 Sekunden, bis die Hände");
  await expect(
    dialog.getByRole("radio", { name: text("de", "authoring.translations.statuses.machine") }),
  ).toBeChecked();
  await expectAccessible(page, "a machine's suggestion in the translation editor");
  const written = await callApi(page.request, cm, "GET", `/authoring/questions/${question.id}/translations`);
  expect(written.translations).toEqual([expect.objectContaining({ lang: "tr", status: "machine" })]);
});
