import fs from "node:fs";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { parse } from "yaml";
import {
  alsoInEnglish,
  answerTutorial,
  apiLogin,
  createTeam,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  goInApp,
  loginWith,
  openAs,
  runTimers,
  setLanguage,
  type TestUser,
  text,
} from "./helpers";

/*
 * Help: a learner asks for help in the quiz, the supervisor answers, the learner reads the answer
 * in the notifications and beside the question; a request closed without an answer; the
 * tutorial, its start-up prompt and its two versions. The request flow and the prompt run once,
 * in German at phone size with their axe scans; their screens are shown in English (360 px) in place by alsoInEnglish, where the request and the answer are sent, so their English
 * toasts show too (the German ones: learning.spec.ts and the closing test below).
 */

const POPUP_WRONG_MS = 2_800;

interface YamlQuestion {
  text: string;
  answers: { text: string; correct?: boolean }[];
}
const schweigepflicht = (
  parse(fs.readFileSync(new URL("../../content/demo/trainings/schweigepflicht.yaml", import.meta.url), "utf8")) as {
    questionnaires: { questions: YamlQuestion[] }[];
  }
).questionnaires.flatMap((q) => q.questions);

/** The first questionnaire of the demo training 'Schweigepflicht', as the learner's URL. */
async function quizPath(request: APIRequestContext, who: TestUser): Promise<string> {
  const { token } = await loginWith(request, who);
  const headers = { authorization: `Bearer ${token}` };
  const topics = (await (await request.get("/api/progress/topics", { headers })).json()) as {
    id: number;
    name: string;
  }[];
  const topic = topics.find((t) => t.name === "Datenschutz und Schweigepflicht");
  const detail = (await (await request.get(`/api/progress/topics/${topic?.id}/trainings`, { headers })).json()) as {
    trainings: { id: number; name: string }[];
  };
  const training = detail.trainings.find((t) => t.name === "Schweigepflicht");
  const path = `/api/progress/topics/${topic?.id}/trainings/${training?.id}/questionnaires`;
  const qns = (await (await request.get(path, { headers })).json()) as { questionnaires: { id: number }[] };
  return `/topic/${topic?.id}/training/${training?.id}/questionnaire/${qns.questionnaires[0]?.id}`;
}

/** Answers the question on screen (right or wrong) and waits for the explanation; its text. */
async function answer(page: Page, lang: string, right: boolean): Promise<string> {
  const shown = (await page.getByTestId("question-text").textContent())?.trim() ?? "";
  const question = schweigepflicht.find((q) => q.text.trim() === shown);
  expect(question, shown).toBeDefined();
  const chosen = right
    ? (question?.answers.filter((a) => a.correct) ?? [])
    : (question?.answers.filter((a) => !a.correct).slice(0, 1) ?? []);
  for (const a of chosen) await page.getByText(a.text, { exact: true }).click();
  await page.getByRole("button", { name: exactly(lang, "quiz.continue") }).click();
  await expect(page.getByTestId("feedback-popup")).toBeVisible();
  await runTimers(page, POPUP_WRONG_MS);
  await expect(page.getByTestId("explanation")).toBeVisible();
  return shown;
}

test("an employee asks for help in the quiz, the supervisor answers it, the employee reads the answer @phone", async ({
  page,
}) => {
  const team = await createTeam(page.request, ["supervisor", "employee"]);
  const quiz = await quizPath(page.request, team.employee);
  await page.clock.install();

  // The learner answers wrongly and asks for help from the explanation, in English.
  await openAs(page, team.employee, quiz, team.employee.password);
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: exactly("de", "quiz.goToQuestion") }).click();
  const asked = await answer(page, "de", false);
  await page.getByRole("button", { name: exactly("de", "quiz.help.button") }).click();
  await expect(page.getByRole("dialog", { name: text("de", "quiz.help.title") })).toBeVisible();
  await alsoInEnglish(page, "the explanation after asking for help", async (t) => {
    const dialog = page.getByRole("dialog", { name: t("quiz.help.title") });
    await dialog.getByRole("button", { name: t("quiz.help.send"), exact: true }).click();
    await expect(page.getByText(t("quiz.help.sent"))).toBeVisible();
    await expect(page.getByTestId("help-asked")).toContainText(t("quiz.help.asked"));
  });
  await expect(page.getByTestId("help-asked")).toContainText(text("de", "quiz.help.asked"));

  // The supervisor sees the count in the header and the question in the list.
  await openAs(page, team.supervisor, "/", team.supervisor.password);
  const indicator = page.getByTestId("help-indicator");
  await expect(indicator).toHaveAccessibleName(text("de", "helpRequests.open_count", { count: 1 }));
  await indicator.click();
  await expect(page).toHaveURL(/\/helprequests$/);
  const item = page.getByTestId("help-item").filter({ hasText: asked });
  await expect(item).toHaveCount(1);
  await expect(item.locator("[data-colour]")).toHaveAttribute("data-colour", "yellow");
  await item.getByRole("button").first().click();
  await expectAccessible(page, "/helprequests");
  await alsoInEnglish(page, "/helprequests", async (t) => {
    await expect(indicator).toHaveAccessibleName(t("helpRequests.open_count", { count: 1 }));
    await expect(item.getByRole("link", { name: t("helpRequests.open") })).toBeVisible();
  });
  await item.getByRole("link", { name: text("de", "helpRequests.open") }).click();

  // The detail: the question with the right answers marked, who asked, and the answer box.
  await expect(page).toHaveURL(/\/helprequests\/\d+$/);
  await expect(page.getByRole("heading", { name: asked })).toBeVisible();
  await expect(page.getByTestId("help-learners")).toContainText(`${team.employee.name} ${team.employee.surname}`);
  const right = schweigepflicht.find((q) => q.text.trim() === asked)?.answers.filter((a) => a.correct) ?? [];
  for (const a of right) {
    await expect(page.getByTestId("help-answers")).toContainText(`${a.text} (${text("de", "helpRequests.right")})`);
  }
  // The new screen's content has the focus, not the page's top.
  await expect(page.getByText(text("de", "helpRequests.askedBy", { count: 1 }), { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toContain(
    text("de", "helpRequests.askedBy", { count: 1 }),
  );
  await expectAccessible(page, "/helprequests/{id}");
  // The answer is sent in English: the detail at 360 px first, then the emptied list.
  const reply = `Schauen Sie in die Erklärung: ${Date.now()}`;
  await alsoInEnglish(page, "/helprequests after the answer", async (t) => {
    for (const a of right) {
      await expect(page.getByTestId("help-answers")).toContainText(`${a.text} (${t("helpRequests.right")})`);
    }
    await expect(page.getByText(t("helpRequests.askedBy", { count: 1 }), { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page, "/helprequests/{id} (en, dark)");
    await page.getByRole("textbox", { name: t("helpRequests.reply.label") }).fill(reply);
    await page.getByRole("button", { name: t("helpRequests.reply.send"), exact: true }).click();
    await expect(page.getByText(t("success.helpRequestRemoved"))).toBeVisible();
    await expect(page).toHaveURL(/\/helprequests$/);
    await expect(page.getByTestId("help-empty")).toHaveText(t("helpRequests.none"));
  });
  await expect(page.getByTestId("help-empty")).toHaveText(text("de", "helpRequests.none"));
  await expect(page.getByTestId("help-indicator")).toHaveCount(0);

  // The learner finds the answer among the notifications; it opens their own questions at this
  // one, the reply beside it, where it can be found again later (the menu's "Meine Fragen").
  await openAs(page, team.employee, "/", team.employee.password);
  await page.getByTestId("notification-bell").click();
  const notice = page.getByTestId("notification").filter({ hasText: reply });
  await expect(notice).toContainText(asked.slice(0, 30));
  await notice.click();
  await expect(page).toHaveURL(/\/my-questions\?question=\d+$/);
  const mine = page.getByTestId("my-question").filter({ hasText: asked });
  await expect(mine).toBeFocused();
  await expect(mine.getByTestId("my-question-reply")).toContainText(reply);
  await expectAccessible(page, "/my-questions");
  await alsoInEnglish(page, "/my-questions", async (t) => {
    await expect(page.getByRole("heading", { name: t("myQuestions.title") })).toBeVisible();
    await expect(mine).toContainText(t("myQuestions.replyBy", { name: "" }).trim());
  });

  // ... and beside the question, when the quiz asks it again in the next round.
  await goInApp(page, quiz);
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: exactly("de", "quiz.goToQuestion") }).click();
  for (let step = 0; step < 12; step++) {
    const shown = await answer(page, "de", true);
    if (shown === asked) {
      await expect(page.getByTestId("help-reply")).toContainText(reply);
      await expect(page.getByTestId("help-reply")).toContainText(text("de", "quiz.help.answerTitle"));
      await expectAccessible(page, "quiz explanation with a reply");
      return;
    }
    await expect(page.getByTestId("help-reply")).toHaveCount(0);
    const finish = page.getByRole("button", { name: exactly("de", "quiz.finish") });
    if (await finish.isVisible()) {
      await finish.click();
      await page.getByRole("button", { name: exactly("de", "quiz.result.nextRound") }).click();
    } else {
      await page.getByRole("button", { name: exactly("de", "quiz.nextQuestion") }).click();
    }
  }
  throw new Error("the question asked about never came again");
});

test("a supervisor closes a request without an answer; another facility's request stays invisible", async ({
  page,
}) => {
  const team = await createTeam(page.request, ["supervisor", "employee"]);
  const other = await createTeam(page.request, ["supervisor"]);
  const { token } = await apiLogin(page, team.employee, team.employee.password);
  const res = await page.request.post("/api/help", {
    data: { question_id: 1 },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);

  await openAs(page, other.supervisor, "/helprequests", other.supervisor.password);
  await expect(page.getByTestId("help-empty")).toBeVisible();
  await goInApp(page, "/helprequests/1");
  await expect(page.getByTestId("help-missing")).toBeVisible();

  await openAs(page, team.supervisor, "/helprequests/1", team.supervisor.password);
  await page.getByRole("button", { name: exactly("de", "helpRequests.reply.handleOnly") }).click();
  await expect(page.getByText(text("de", "success.helpRequestRemoved"))).toBeVisible();
  await expect(page.getByTestId("help-empty")).toBeVisible();
});

test.describe("tutorial", () => {
  test("the start-up prompt leads an employee to the employee version @phone", async ({ page }) => {
    const { employee } = await createTeam(page.request, ["employee"], { tutorialPrompt: true });
    const { token } = await apiLogin(page, employee, employee.password);
    await page.goto(`/?token=${token}`);
    const prompt = page.getByRole("dialog", { name: text("de", "tutorial.title") });
    await expect(prompt).toBeVisible();
    await alsoInEnglish(page, "the tutorial prompt", async (t) => {
      const shown = page.getByRole("dialog", { name: t("tutorial.title") });
      await expect(shown.getByRole("button", { name: t("common.yes"), exact: true })).toBeVisible();
    });
    await prompt.getByRole("button", { name: exactly("de", "common.yes") }).click();
    await expect(page).toHaveURL(/\/help$/);
    const tutorial = page.getByTestId("tutorial");
    await expect(tutorial).toHaveAttribute("data-audience", "employee");
    await expect(page.getByRole("radiogroup", { name: text("de", "tutorial.version") })).toHaveCount(0);
    /** A page of the contents: its section scrolled to, its screenshot loaded with the session's token. */
    const readPage = async (lang: string) => {
      const contents = page.getByRole("navigation", { name: text(lang, "tutorial.contents") });
      const links = contents.getByRole("link");
      await expect(links).toHaveCount(6);
      const title = (await links.nth(1).textContent()) ?? "";
      await links.nth(1).click();
      await expect(page).toHaveURL(/#tutorial-learn$/);
      const section = page.getByRole("region", { name: title });
      await expect(section).toBeInViewport();
      const image = section.getByRole("img", { name: text(lang, "tutorial.screenshot", { title }) });
      if ((await image.count()) > 0) {
        await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      }
      return title;
    };
    const title = await readPage("de");
    const noScroll = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(noScroll, "no sideways scrolling").toBe(true);
    await expectAccessible(page, "/help employee");
    // In English: the English tutorial, its own screenshots.
    await alsoInEnglish(page, "/help employee", async () => {
      expect(await readPage("en")).not.toBe(title);
    });
  });

  test("an administrator reads the staff version and can switch to the employees' one, in English", async ({
    page,
  }) => {
    const { administrator } = await createTeam(page.request, ["administrator"]);
    await setLanguage(page.request, administrator, "en");
    await openAs(page, administrator, "/help", administrator.password);
    const tutorial = page.getByTestId("tutorial");
    await expect(tutorial).toHaveAttribute("data-audience", "admin");
    await expect(page.getByRole("heading", { name: "Answering help requests" })).toBeVisible();
    await expectAccessible(page, "/help admin (en)");
    await page.getByText(text("en", "tutorial.forEmployees")).click();
    await expect(tutorial).toHaveAttribute("data-audience", "employee");
  });

  test("'don't show again' turns the prompt off for good", async ({ page }) => {
    const { employee } = await createTeam(page.request, ["employee"], { tutorialPrompt: true });
    const { token, user } = await apiLogin(page, employee, employee.password);
    await page.goto(`/?token=${token}`);
    await answerTutorial(page, exactly("de", "tutorial.never"));
    // Closed, the focus is on the start page's title, where reading goes on.
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    await expect
      .poll(async () => {
        const res = await page.request.get(`/api/auth/users/${user.id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await res.json()) as { show_help_redirect: boolean }).show_help_redirect;
      })
      .toBe(false);
  });
});

test("the help screens pass axe, with a request open", async ({ page }) => {
  const team = await createTeam(page.request, ["supervisor", "employee"]);
  const learner = await loginWith(page.request, team.employee);
  const asked = await page.request.post("/api/help", {
    data: { question_id: 2 },
    headers: { authorization: `Bearer ${learner.token}` },
  });
  expect(asked.status()).toBe(200);
  await openAs(page, team.supervisor, "/helprequests", team.supervisor.password);
  await page.getByTestId("help-item").first().getByRole("button").first().click();
  await expectAccessible(page, "/helprequests");
  await goInApp(page, "/helprequests/2");
  await expect(page.getByTestId("help-answers")).toBeVisible();
  await expectAccessible(page, "/helprequests/2");
  await goInApp(page, "/help");
  await expect(page.getByTestId("tutorial")).toBeVisible();
  await expectAccessible(page, "/help");
});
