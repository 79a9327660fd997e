import { expect, test } from "@playwright/test";
import {
  callApi,
  createCommonTraining,
  createTeam,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  openAs,
  setLanguage,
  text,
} from "./helpers";

/*
 * Content in the learner's language (issue 31): a question with a published English translation
 * comes in English to a learner whose language is English, marked with its language, and can be
 * switched to the binding German original and back with one tap; the explanation follows the
 * language the question was shown in.
 */

test("a learner gets a question in their language and switches it to the German original and back @phone", async ({
  page,
}) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  await setLanguage(page.request, employee, "en");
  const common = await createCommonTraining(page.request);
  const cm = common.contentManager;
  const qn = await callApi(page.request, cm, "POST", "/authoring/questionnaires", {
    training_id: common.training,
    name: "Händehygiene",
  });
  const saved = await callApi(page.request, cm, "POST", `/authoring/questionnaires/${qn.id}/questions`, {
    type: "single",
    text: "Wie lange reiben Sie die Hände mit Desinfektionsmittel ein?",
    answers: [
      { text: "Mindestens 30 Sekunden", correct: true },
      { text: "Fünf Sekunden", correct: false },
    ],
    explanation: "<p>Mindestens 30 Sekunden, bis die Hände trocken sind.</p>",
    hint: null,
    media: null,
  });
  const question = saved.questionnaire.questions[0] as { id: number; answers: { id: number; text: string }[] };
  const english = ["At least 30 seconds", "Five seconds"];
  await callApi(page.request, cm, "PUT", `/authoring/questions/${question.id}/translations/en`, {
    text: "How long do you rub your hands with disinfectant?",
    answers: question.answers.map((a, i) => ({ id: a.id, text: english[i] })),
    explanation: "<p>At least 30 seconds, until the hands are dry.</p>",
    hint: null,
    status: "published",
  });
  await callApi(page.request, cm, "POST", `/authoring/questionnaires/${qn.id}/publish`);

  await openAs(page, employee, `/topic/${common.topic}/training/${common.training}/questionnaire/${qn.id}`);
  await page.getByText(text("en", "quiz.independence.confirm")).click();
  await page.getByRole("button", { name: exactly("en", "quiz.goToQuestion") }).click();
  const shown = page.getByTestId("question-text");
  await expect(shown).toHaveText("How long do you rub your hands with disinfectant?");
  await expect(shown).toHaveAttribute("lang", "en");
  await expect(page.getByText("At least 30 seconds", { exact: true })).toBeVisible();
  const toGerman = page.getByRole("button", { name: exactly("en", "quiz.showOriginal") });
  await expectAccessible(page, "a translated question");
  await expectNoSidewaysScroll(page, "a translated question");

  // One tap: the whole question in German, marked as German; the focus stays on the switch.
  await toGerman.click();
  await expect(shown).toHaveText("Wie lange reiben Sie die Hände mit Desinfektionsmittel ein?");
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
