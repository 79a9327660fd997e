import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, type Locator, type Page, test } from "@playwright/test";
import {
  alsoInEnglish,
  callApi,
  createCommonTraining,
  createTeam,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  loginWith,
  openAs,
  runTimers,
  type TestUser,
  text,
  unique,
} from "./helpers";

/*
 * Authoring (issue 16): facility questionnaires written in the app, and common questions fixed in
 * it. Each flow runs once, in German at phone size with its axe scans; its screens are shown in
 * English (360 px) in place by alsoInEnglish, where the image is zoomed, the rule's
 * message shown and the questionnaire published.
 */

const POPUP_WRONG_MS = 2_800;
/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

/** The API as `who`, through this test's page (tokens reused per user: helpers.callApi). */
const api = (page: Page, who: TestUser, method: "GET" | "POST" | "PUT", url: string, data?: unknown) =>
  callApi(page.request, who, method, url, data);

test("an administrator writes a questionnaire with an image, previews and publishes it; only the facility learns it @phone", async ({
  page,
}) => {
  const { facility, administrator, employee } = await createTeam(page.request, ["administrator", "employee"]);
  const other = await createTeam(page.request, ["employee"]);
  const ids = await createCommonTraining(page.request);
  const TRAINING = ids.name;
  const name = `Alarmplan ${unique()}`;
  const question = "Wo hängt unser Alarmplan?";
  expect(facility.id).toBeGreaterThan(0);

  await page.clock.install();
  await openAs(page, administrator, "/authoring");
  await expect(page.getByRole("heading", { name: exactly("de", "authoring.title") })).toBeVisible();
  await expectAccessible(page, "authoring list");
  const row = page.getByTestId("authoring-training").filter({ hasText: TRAINING });
  await expect(row.getByRole("button", { name: exactly("de", "authoring.newQuestionnaire") })).toBeVisible();
  // The new questionnaire's dialog is opened in English; the German run goes on in it.
  const dialog = page.getByRole("dialog");
  await alsoInEnglish(page, "authoring list and the new questionnaire's dialog", async (t) => {
    await expect(page.getByRole("heading", { name: t("authoring.title"), exact: true })).toBeVisible();
    await row.getByRole("button", { name: t("authoring.newQuestionnaire"), exact: true }).click();
    await expect(dialog.getByLabel(t("authoring.name"))).toBeVisible();
    await expect(dialog.getByRole("button", { name: t("authoring.create"), exact: true })).toBeVisible();
  });
  await dialog.getByLabel(text("de", "authoring.name")).fill(name);
  await dialog.getByRole("button", { name: exactly("de", "authoring.create") }).click();
  await expect(page).toHaveURL(/\/authoring\/questionnaire\/\d+$/);
  await expect(page.getByTestId("status")).toHaveText(text("de", "authoring.status.draft"));

  // A question with an image: the rules are checked before anything is sent.
  await page.getByRole("button", { name: exactly("de", "authoring.addQuestion") }).click();
  const form = page.getByTestId("question-form");
  await form.getByRole("button", { name: exactly("de", "authoring.saveQuestion") }).click();
  await expect(form.getByText(text("de", "authoring.problems.textRequired"))).toBeVisible();
  const questionText = (lang: string) => form.getByRole("textbox", { name: exactly(lang, "authoring.questionText") });
  await questionText("de").fill(question);
  await form.getByRole("textbox", { name: exactly("de", "authoring.answerN", { n: 1 }) }).fill("Am Empfang");
  await form.getByRole("textbox", { name: exactly("de", "authoring.answerN", { n: 2 }) }).fill("Im Keller");
  await form.getByRole("radio", { name: exactly("de", "authoring.isRight", { n: 1 }) }).check();
  await form.getByTestId("explanation-editor").click();
  await page.keyboard.type("Der Plan hängt am Empfang.");
  await form.locator('input[type="file"]').setInputFiles({ name: "plan.png", mimeType: "image/png", buffer: PNG });
  await expect(form.getByRole("img", { name: text("de", "authoring.media.label") })).toBeVisible();
  await expectAccessible(page, "question form");
  // In English: the form's labels, and the rule's message when the text is taken out again.
  await alsoInEnglish(page, "question form", async (t) => {
    await expect(page.getByTestId("status")).toHaveText(t("authoring.status.draft"));
    await expect(form.getByRole("textbox", { name: t("authoring.answerN", { n: 2 }), exact: true })).toHaveValue(
      "Im Keller",
    );
    await expect(form.getByRole("radio", { name: t("authoring.isRight", { n: 1 }), exact: true })).toBeChecked();
    await expect(form.getByRole("img", { name: t("authoring.media.label") })).toBeVisible();
    await questionText("en").fill("");
    await expect(form.getByText(t("authoring.problems.textRequired"))).toBeVisible();
    await questionText("en").fill(question);
    await expect(form.getByText(t("authoring.problems.textRequired"))).toHaveCount(0);
    await expect(form.getByRole("button", { name: t("authoring.saveQuestion"), exact: true })).toBeVisible();
  });
  // Saved with "save and next": the next, new question opens empty, the keyboard in its text.
  await form.getByRole("button", { name: exactly("de", "authoring.saveAndNext") }).click();
  await expect(page.getByTestId("question-item")).toHaveCount(1);
  await expect(questionText("de")).toHaveValue("");
  await expect(questionText("de")).toBeFocused();
  await form.getByRole("button", { name: exactly("de", "common.cancel") }).click();
  await expect(form).toHaveCount(0);
  // On a phone the question's actions sit below its text, which keeps its words whole.
  const item = page.getByTestId("question-item");
  const said = await item.getByText(question, { exact: false }).boundingBox();
  const up = await item.getByRole("button", { name: exactly("de", "authoring.moveUp") }).boundingBox();
  expect(up && said && up.y >= said.y + said.height - 1, "the actions below the question").toBe(true);

  // The preview is the quiz screen itself, with its pop-up, recording nothing.
  await page.getByRole("button", { name: exactly("de", "authoring.preview.button") }).click();
  const preview = page.getByRole("dialog", { name: exactly("de", "authoring.preview.title") });
  await preview.getByRole("button", { name: exactly("de", "quiz.goToQuestion") }).click();
  await expect(preview.getByTestId("question-text")).toHaveText(question);
  await preview.getByText("Am Empfang", { exact: true }).click();
  await preview.getByRole("button", { name: exactly("de", "quiz.continue") }).click();
  await expect(page.getByTestId("feedback-popup")).toBeVisible();
  await runTimers(page, POPUP_WRONG_MS);
  await expect(preview.getByTestId("explanation")).toBeVisible();
  await expect(preview.getByText("Der Plan hängt am Empfang.")).toBeVisible();
  await expect(preview.getByTestId("explanation").locator('img[src*="/static/image/"]')).toBeVisible();
  // The learner's explanation itself: the focus on the verdict, the marks in words, the image zoom.
  await expect(preview.getByTestId("verdict")).toBeFocused();
  await expect(preview.getByTestId("feedback-answer").filter({ hasText: "Am Empfang" })).toContainText(
    text("de", "quiz.mark.chosenRight"),
  );
  await expectAccessible(page, "preview");
  /** The explanation's image zoomed and closed again, the focus back on the image. */
  const zoomImage = async (shown: Locator, lang: string) => {
    await shown.getByTestId("explanation-image").click();
    const zoom = page.getByRole("dialog", { name: exactly(lang, "quiz.image.title") });
    await expect(zoom.getByTestId("zoomed-image")).toBeVisible();
    await zoom.getByRole("button", { name: exactly(lang, "common.close") }).click();
    await expect(zoom).toBeHidden();
    await expect(shown.getByTestId("explanation-image")).toBeFocused();
  };
  await zoomImage(preview, "de");
  await alsoInEnglish(page, "preview", async (t) => {
    const shown = page.getByRole("dialog", { name: t("authoring.preview.title"), exact: true });
    const mark = shown.getByTestId("feedback-answer").filter({ hasText: "Am Empfang" });
    await expect(mark).toContainText(t("quiz.mark.chosenRight"));
    await zoomImage(shown, "en");
    await expect(shown.getByRole("button", { name: t("quiz.finish"), exact: true })).toBeVisible();
  });
  // Taller than the screen, the explanation scrolls under the action bar, which stays at the
  // bottom of the dialog (a bar fixed to the screen would scroll with the dialog's content).
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 420 });
  const bar = preview.getByTestId("quiz-actions");
  const bottom = async () => {
    const box = await bar.boundingBox();
    return box ? Math.round(box.y + box.height) : -1;
  };
  await expect.poll(bottom).toBe(420);
  await page.mouse.move(195, 210);
  await page.mouse.wheel(0, 50);
  // Scrolled (the dialog's content is the box that scrolls), and the bar is where it was.
  await expect
    .poll(() => page.evaluate(() => document.querySelector(".mantine-Modal-content")?.scrollTop ?? 0))
    .toBeGreaterThan(30);
  expect(await bottom()).toBe(420);
  if (size) await page.setViewportSize(size);
  await preview.getByRole("button", { name: exactly("de", "quiz.finish") }).click();
  await preview.getByRole("button", { name: exactly("de", "authoring.preview.close") }).click();

  // Publishing says what happens to certificates already held; published in English.
  await page.getByRole("button", { name: exactly("de", "authoring.publish") }).click();
  const confirm = page.getByRole("dialog", { name: exactly("de", "authoring.publishTitle") });
  await expect(confirm).toContainText(text("de", "authoring.renewalNote", { count: 0 }));
  await expect(confirm.getByRole("button", { name: exactly("de", "authoring.publish") })).toBeVisible();
  await alsoInEnglish(page, "the published questionnaire", async (t) => {
    const shown = page.getByRole("dialog", { name: t("authoring.publishTitle"), exact: true });
    await expect(shown).toContainText(t("authoring.renewalNote", { count: 0 }));
    await shown.getByRole("button", { name: t("authoring.publish"), exact: true }).click();
    await expect(page.getByTestId("status")).toHaveText(t("authoring.status.published"));
  });
  await expect(page.getByTestId("status")).toHaveText(text("de", "authoring.status.published"));

  // The facility's employee sees it, marked as the facility's own, and takes it.
  const path = `/topic/${ids.topic}/training/${ids.training}`;
  const before = await api(
    page,
    other.employee,
    "GET",
    `/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires`,
  );
  await openAs(page, employee, path);
  const mine = page.getByTestId("questionnaire").filter({ hasText: name });
  await expect(mine.getByTestId("own-questionnaire")).toHaveText(text("de", "questionnaires.own"));
  await expect(mine.getByRole("link", { name: new RegExp(text("de", "questionnaires.edit")) })).toHaveCount(0);
  await alsoInEnglish(page, "the training with the facility's questionnaire", async (t) => {
    await expect(mine.getByTestId("own-questionnaire")).toHaveText(t("questionnaires.own"));
    await expect(mine.getByRole("link", { name: new RegExp(t("questionnaires.edit")) })).toHaveCount(0);
  });
  const detail = await api(
    page,
    employee,
    "GET",
    `/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires`,
  );
  expect(detail.training.total).toBe(before.training.total + 1);
  const id = detail.questionnaires.find((q: { name: string }) => q.name === name).id;
  await page.goto(`${path}/questionnaire/${id}`);
  await page.getByText(text("de", "quiz.independence.confirm")).click();
  await page.getByRole("button", { name: exactly("de", "quiz.goToQuestion") }).click();
  await expect(page.getByTestId("question-text")).toHaveText(question);
  await page.getByText("Am Empfang", { exact: true }).click();
  await page.getByRole("button", { name: exactly("de", "quiz.continue") }).click();
  await runTimers(page, POPUP_WRONG_MS);
  await expect(page.getByTestId("explanation").locator('img[src*="/static/image/"]')).toBeVisible();
  await page.getByRole("button", { name: exactly("de", "quiz.finish") }).click();
  await expect(page.getByTestId("quiz-result")).toBeVisible();
  const after = await api(
    page,
    employee,
    "GET",
    `/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires`,
  );
  expect(after.training.count).toBe(detail.training.count + 1);
  expect(after.questionnaires.find((q: { id: number }) => q.id === id)).toMatchObject({ finished: true, count: 1 });

  // The other facility's employee never sees it.
  await openAs(page, other.employee, path);
  await expect(page.getByText(text("de", "questionnaires.none"))).toBeVisible();
  await expect(page.getByText(name)).toHaveCount(0);
  await alsoInEnglish(page, "a training without questionnaires", async (t) => {
    await expect(page.getByText(t("questionnaires.none"))).toBeVisible();
  });
  const { token } = await loginWith(page.request, other.employee);
  const foreign = await page.request.get(
    `/api/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires/${id}/questions`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  expect(foreign.status()).toBe(404);
});

test("a content manager follows a help request to a common question and fixes it after it was answered @phone", async ({
  page,
}) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  // A common topic, training and questionnaire of its own, so other tests' content stays as it is.
  const common = await createCommonTraining(page.request);
  const cm = common.contentManager;
  const topic = { id: common.topic };
  const training = { id: common.training };
  const qn = await api(page, cm, "POST", "/authoring/questionnaires", {
    training_id: training.id,
    name: "Fluchtwege",
  });
  const saved = await api(page, cm, "POST", `/authoring/questionnaires/${qn.id}/questions`, {
    type: "single",
    text: "Wie breit ist ein Fluchtweg?",
    answers: [
      { text: "Mindestens 1 m", correct: true },
      { text: "Egal", correct: false },
    ],
    explanation: "<p>Mindestens 1 m.</p>",
    hint: null,
    media: null,
  });
  await api(page, cm, "POST", `/authoring/questionnaires/${qn.id}/publish`);
  // The employee answers it right.
  const base = `/progress/topics/${topic.id}/trainings/${training.id}/questionnaires/${qn.id}`;
  const next = await api(page, employee, "GET", `${base}/questions`);
  const right = saved.questionnaire.questions[0].answers
    .filter((a: { correct: boolean }) => a.correct)
    .map((a: { id: number }) => a.id);
  await api(page, employee, "POST", `${base}/questions/${next.question.id}/answers`, right);

  // … and finds it unclear: the help request leads the content manager to the question's form.
  const question = next.question.id;
  const asked = await api(page, employee, "POST", "/help", { question_id: question });
  expect(asked).toBeTruthy();
  await openAs(page, cm, `/helprequests/${question}`);
  const fix = (lang: string) => page.getByRole("link", { name: exactly(lang, "helpRequests.fixQuestion") });
  await expect(fix("de")).toBeVisible();
  await alsoInEnglish(page, "a help request about a common question", async () => {
    await expect(fix("en")).toBeVisible();
  });
  await fix("de").click();
  await expect(page).toHaveURL(new RegExp(`/authoring/questionnaire/${qn.id}\\?question=${question}$`));
  const form = page.getByTestId("question-form");
  await expect(form.getByText(text("de", "authoring.answeredNote"))).toBeVisible();
  const textbox = form.getByRole("textbox", { name: exactly("de", "authoring.questionText") });
  await expect(textbox).toBeFocused();
  await textbox.fill("Wie breit muss ein Fluchtweg mindestens sein?");
  // An mp4 for the explanation, uploaded like an image and served like other media.
  const mp4 = fileURLToPath(
    new URL("../../content/demo/media/erste-hilfe-notfall-herzdruckmassage.mp4", import.meta.url),
  );
  await form.locator('input[type="file"]').setInputFiles(mp4);
  await expect(form.getByText(text("de", "authoring.media.video"))).toBeVisible();
  await expectAccessible(page, "question form of an answered question");
  await alsoInEnglish(page, "question form of an answered question", async (t) => {
    await expect(form.getByText(t("authoring.answeredNote"))).toBeVisible();
    await expect(form.getByRole("textbox", { name: t("authoring.questionText"), exact: true })).toHaveValue(
      "Wie breit muss ein Fluchtweg mindestens sein?",
    );
    await expect(form.getByText(t("authoring.media.video"))).toBeVisible();
    await expect(form.getByRole("button", { name: t("authoring.saveQuestion"), exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: t("authoring.import.button"), exact: true })).toBeVisible();
  });
  await form.getByRole("button", { name: exactly("de", "authoring.saveQuestion") }).click();
  await expect(page.getByText(text("de", "authoring.savedVersion"))).toBeVisible();
  await expect(page.getByTestId("question-item")).toContainText("Wie breit muss ein Fluchtweg mindestens sein?");
  const edited = await api(page, cm, "GET", `/authoring/questionnaires/${qn.id}`);
  const media = edited.questions[0].media;
  expect(media?.type).toBe("video");
  const { token: cmToken } = await loginWith(page.request, cm);
  const video = await page.request.get(`/api/static/video/${media.id}?token=${cmToken}`);
  expect(video.status()).toBe(200);
  expect(video.headers()["content-type"]).toBe("video/mp4");
  expect((await video.body()).equals(fs.readFileSync(mp4))).toBe(true);

  // The employee's progress stays: the right answer to the first version still counts.
  const progress = await api(
    page,
    employee,
    "GET",
    `/progress/topics/${topic.id}/trainings/${training.id}/questionnaires`,
  );
  expect(progress.questionnaires[0]).toMatchObject({ count: 1, total: 1, finished: true });

  // More questions from another LMS's export: the preview names what cannot come (Moodle's
  // essay, matching, numerical …), and nothing is written before the confirmation.
  const bank = fileURLToPath(
    new URL("../../apps/server/src/authoring/question-bank/fixtures/hygiene-brandschutz.moodle.xml", import.meta.url),
  );
  const expected = await api(page, cm, "POST", `/authoring/questionnaires/${qn.id}/import/preview`, {
    format: "moodle-xml",
    text: fs.readFileSync(bank, "utf8"),
  });
  await page.getByRole("button", { name: exactly("de", "authoring.import.button") }).click();
  const importing = page.getByRole("dialog", { name: exactly("de", "authoring.import.title") });
  await importing.locator('input[type="file"]').setInputFiles(bank);
  const listed = importing.getByTestId("import-preview");
  // The type in words ("Freitext"), not Moodle's id ("essay").
  await expect(listed).toContainText(
    text("de", "authoring.import.unsupported", { type: text("de", "authoring.import.types.essay") }),
  );
  await expect(listed.getByRole("listitem").first()).toContainText(expected.questions[0].text);
  // The picture embedded in the file comes with its question; what changed on the way is listed;
  // the file's categories may become questionnaires of their own (here: all into this one).
  await expect(listed).toContainText(text("de", "authoring.import.image", { name: "VAH Siegel.png" }));
  await expect(importing.getByTestId("import-notes")).toContainText(
    text("de", "authoring.import.notes.answer-feedback-merged"),
  );
  const flatten = importing.getByRole("radio", { name: exactly("de", "authoring.import.categories.flatten") });
  await expect(flatten).toBeChecked();
  await expect(
    importing.getByRole("radio", {
      name: exactly("de", "authoring.import.categories.questionnaires", { count: expected.categories.length }),
    }),
  ).toBeVisible();
  await expectAccessible(page, "question import preview");
  const confirmImport = (lang: string) =>
    page.getByRole("button", {
      name: exactly(lang, "authoring.import.confirm", { count: expected.questions.length }),
    });
  await alsoInEnglish(page, "question import preview", async (t) => {
    const shown = page.getByRole("dialog", { name: t("authoring.import.title"), exact: true });
    await expect(shown.getByTestId("import-preview")).toContainText(
      t("authoring.import.unsupported", { type: t("authoring.import.types.essay") }),
    );
    await expect(confirmImport("en")).toBeVisible();
  });
  await expect(page.getByTestId("question-item")).toHaveCount(1);
  await confirmImport("de").click();
  await expect(importing).toBeHidden();
  await expect(page.getByTestId("question-item")).toHaveCount(1 + expected.questions.length);
  const imported = (await api(page, cm, "GET", `/authoring/questionnaires/${qn.id}`)) as {
    questions: { text: string; media: { type: string } | null }[];
  };
  const pictured = imported.questions.find((q) => q.text.startsWith("Welches Symbol auf dem Etikett"));
  expect(pictured?.media?.type).toBe("image");
});

test("a Super-Admin writes a training's legal basis in the training dialog", async ({ page }) => {
  const ids = await createCommonTraining(page.request);
  const cm = ids.contentManager;
  await openAs(page, cm, "/authoring");
  const row = page.getByTestId("authoring-training").filter({ hasText: ids.name });
  await row.getByRole("button", { name: exactly("de", "authoring.editTraining") }).click();
  const dialog = page.getByRole("dialog", { name: exactly("de", "authoring.editTraining") });
  const field = dialog.getByRole("textbox", { name: exactly("de", "authoring.legalBasis") });
  await expect(field).toHaveValue("");
  await expect(field).toHaveAttribute("maxlength", "200");
  await field.fill("§ 10 ArbSchG, § 22 DGUV Vorschrift 1");
  await expectAccessible(page, "the training dialog");
  await expectNoSidewaysScroll(page, "the training dialog");
  await dialog.getByRole("button", { name: exactly("de", "common.save") }).click();
  await expect(dialog).toBeHidden();
  const tree = (await api(page, cm, "GET", "/authoring")) as {
    topics: { trainings: { id: number; legal_basis: string | null }[] }[];
  };
  const saved = tree.topics.flatMap((t) => t.trainings).find((t) => t.id === ids.training);
  expect(saved?.legal_basis).toBe("§ 10 ArbSchG, § 22 DGUV Vorschrift 1");
  // Opened again, the dialog holds it.
  await row.getByRole("button", { name: exactly("de", "authoring.editTraining") }).click();
  await expect(field).toHaveValue("§ 10 ArbSchG, § 22 DGUV Vorschrift 1");
});
