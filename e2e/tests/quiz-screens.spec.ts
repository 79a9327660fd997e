import fs from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { parse } from "yaml";
import {
  alsoInEnglish,
  applyPreference,
  createTeam,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  goInApp,
  openAs,
  runTimers,
  setLanguage,
  setPreference,
  type TestUser,
  THEMES,
  text,
  tokenOf,
  trainingPlace,
} from "./helpers";

/**
 * The quiz screens of issue 13: focus, the phone quiz, read-aloud, the locked questionnaire and
 * the result screen. The demo training 'Brandschutz im Pflegeheim' has two questionnaires of six
 * questions (single and multiple choice, two with an explanation image). The locked questionnaire
 * and the walk over every quiz screen run once, in German at phone size, with axe on each screen;
 * each screen is shown in English (360 px) in place by alsoInEnglish.
 */
const TOPIC = "Brandschutz";
const TRAINING = "Brandschutz im Pflegeheim";
/** The feedback pop-up stays 1.8 s after a right and 2.8 s after a wrong answer (spec §9). */
const POPUP_WRONG_MS = 2_800;

interface YamlAnswer {
  text: string;
  correct?: boolean;
}
interface YamlQuestion {
  text: string;
  type?: string;
  answers: YamlAnswer[];
  media?: { image?: string };
}

const content = parse(
  fs.readFileSync(new URL("../../content/demo/trainings/brandschutz-grundlagen.yaml", import.meta.url), "utf8"),
) as { questionnaires: { questions: YamlQuestion[] }[] };
const QUESTIONS = content.questionnaires.flatMap((q) => q.questions);

interface Place {
  trainingPath: string;
  /** The questionnaires' quiz addresses, in order. */
  quizzes: string[];
}

/** The training's address and its questionnaires' ids, read as the learner (the API the page uses). */
function place(page: Page, token: string): Promise<Place> {
  return trainingPlace(page.request, token, TOPIC, TRAINING);
}

async function questionOnScreen(page: Page): Promise<YamlQuestion> {
  const shown = (await page.getByTestId("question-text").textContent())?.trim();
  const question = QUESTIONS.find((q) => q.text.trim() === shown);
  expect(question, `question "${shown}" is in the content`).toBeDefined();
  return question as YamlQuestion;
}

/** The answer card of `answer` on the question screen (radio or checkbox). */
function card(page: Page, answer: string): Locator {
  return page
    .getByRole(/* single or multiple */ "radio", { name: answer, exact: true })
    .or(page.getByRole("checkbox", { name: answer, exact: true }));
}

/** Confirms independence and goes to the first question (mouse; the keyboard test does it by keys). */
async function startQuiz(page: Page, lang: string): Promise<void> {
  await page.getByText(text(lang, "quiz.independence.confirm")).click();
  await page.getByRole("button", { name: exactly(lang, "quiz.goToQuestion") }).click();
  await expect(page.getByTestId("question-text")).toBeVisible();
}

/** Chooses answers of the question on screen and sends them; stops while the pop-up shows. */
async function answer(page: Page, lang: string, pick: (q: YamlQuestion) => YamlAnswer[]): Promise<YamlQuestion> {
  const question = await questionOnScreen(page);
  for (const a of pick(question)) await card(page, a.text).click();
  await page.getByRole("button", { name: exactly(lang, "quiz.continue") }).click();
  await expect(page.getByTestId("feedback-popup")).toBeVisible();
  return question;
}

async function skipPopup(page: Page): Promise<void> {
  await runTimers(page, POPUP_WRONG_MS);
  await expect(page.getByTestId("feedback-popup")).toHaveCount(0);
  await expect(page.getByTestId("explanation")).toBeVisible();
}

/** A language's texts by key (helpers.text, or alsoInEnglish's). */
type Texts = (key: string, values?: Record<string, string | number>) => string;

const rightOnes = (q: YamlQuestion) => q.answers.filter((a) => a.correct);
const oneWrong = (q: YamlQuestion) => q.answers.filter((a) => !a.correct).slice(0, 1);

/**
 * A new employee of a new facility, in `lang` (and `theme`), the app opened at the address `at`
 * gives (a quiz's, the training's): one page load, as a learner opens a link to it.
 */
async function learner(
  page: Page,
  lang: string,
  at: (where: Place) => string,
  theme?: string,
): Promise<{ employee: TestUser; where: Place }> {
  const { employee } = await createTeam(page.request, ["employee"]);
  if (lang !== "de") await setLanguage(page.request, employee, lang);
  if (theme) await setPreference(page.request, employee, "theme", theme);
  // The token createUser logged in with, still young: no second login for the addresses.
  const where = await place(page, await tokenOf(page.request, employee));
  await page.clock.install();
  await openAs(page, employee, at(where), employee.password);
  return { employee, where };
}

const firstQuiz = (where: Place) => where.quizzes[0] ?? "";
const secondQuiz = (where: Place) => where.quizzes[1] ?? "";

/* ---------- Defects found in use ---------- */

test("a locked questionnaire opened by its address says it is locked and leads to the one to do first @phone", async ({
  page,
}) => {
  const { where } = await learner(page, "de", secondQuiz);
  /** What the screen says, and does not say, in `t`'s language. */
  const expectLocked = async (t: Texts) => {
    const first = t("questionnaires.name", { name: "1" });
    await expect(page.getByRole("heading", { name: t("quiz.locked.title"), exact: true })).toBeVisible();
    await expect(page.getByText(t("quiz.locked.text", { name: first }))).toBeVisible();
    // Neither 'finished, 0 of 0' nor the permission toast of the refused question request.
    await expect(page.getByText(t("quiz.done"))).toHaveCount(0);
    await expect(page.getByText(t("quiz.progress", { count: 0, total: 0 }))).toHaveCount(0);
    await expect(page.locator(".mantine-Notification-root")).toHaveCount(0);
    await expect(page.getByText(t("quiz.independence.confirm"))).toHaveCount(0);
    await expect(
      page.getByRole("link", { name: t("quiz.locked.toFirst", { name: first }), exact: true }),
    ).toBeVisible();
  };
  await expectLocked((key, values) => text("de", key, values));
  await expectNoSidewaysScroll(page, "the locked questionnaire");
  const first = text("de", "questionnaires.name", { name: "1" });
  const go = page.getByRole("link", { name: exactly("de", "quiz.locked.toFirst", { name: first }) });
  await expect(go).toBeFocused();
  await alsoInEnglish(page, "the locked questionnaire", expectLocked);
  await go.click();
  await expect(page).toHaveURL(new RegExp(`${where.quizzes[0]}$`));
  await expect(page.getByText(text("de", "quiz.independence.confirm"))).toBeVisible();
});

test("multiple-choice feedback tells the learner's own choices from the right answers missed, in text @phone", async ({
  page,
}) => {
  await learner(page, "en", firstQuiz);
  await startQuiz(page, "en");
  // Answer right until a multiple-choice question comes; there choose one right and one wrong answer.
  for (let step = 0; step < 6; step++) {
    const q = await questionOnScreen(page);
    if (q.type === "multiple") break;
    await answer(page, "en", rightOnes);
    await skipPopup(page);
    await page.getByRole("button", { name: exactly("en", "quiz.nextQuestion") }).click();
    await expect(page.getByTestId("question-text")).toBeVisible();
  }
  const q = await answer(page, "en", (q) => [...rightOnes(q).slice(0, 1), ...oneWrong(q)]);
  expect(q.type).toBe("multiple");
  await skipPopup(page);
  const rows = page.getByTestId("feedback-answer");
  await expect(rows).toHaveCount(q.answers.length);
  const [chosenRight, ...missed] = rightOnes(q);
  const [chosenWrong] = oneWrong(q);
  const row = (a: YamlAnswer | undefined) => rows.filter({ hasText: a?.text ?? "?" });
  await expect(row(chosenRight)).toContainText(text("en", "quiz.mark.chosenRight"));
  await expect(row(chosenWrong)).toContainText(text("en", "quiz.mark.chosenWrong"));
  for (const m of missed) await expect(row(m)).toContainText(text("en", "quiz.mark.missed"));
  for (const other of q.answers.filter((a) => !a.correct && a !== chosenWrong)) {
    await expect(row(other)).not.toContainText(/Your answer|right/);
  }
  // The status icons keep their size next to long answers (a phone wraps them over lines).
  const sizes = await rows.locator("[data-testid=answer-status]").evaluateAll((icons) =>
    icons.map((i) => {
      const r = i.getBoundingClientRect();
      return [Math.round(r.width), Math.round(r.height)];
    }),
  );
  expect(sizes.length).toBe(q.answers.length);
  for (const s of sizes) expect(s).toEqual([20, 20]);
});

test("the result screen offers the next questionnaire first and one way back to the training @phone", async ({
  page,
}) => {
  const { where } = await learner(page, "de", firstQuiz);
  await startQuiz(page, "de");
  await finishQuestionnaire(page, "de");
  const result = page.getByTestId("quiz-result");
  const next = result.getByRole("link", {
    name: exactly("de", "quiz.result.nextQuestionnaire", { name: text("de", "questionnaires.name", { name: "2" }) }),
  });
  await expect(next).toBeVisible();
  await expect(next).toBeFocused();
  // The primary action is the next questionnaire; only one control leads back to the training.
  const actions = result.locator("a, button");
  await expect(actions.first()).toHaveText(await next.innerText());
  await expect(next).not.toHaveAttribute("data-variant", /default|light|subtle/);
  await expect(result.getByRole("link", { name: exactly("de", "quiz.result.back") })).toHaveAttribute(
    "data-variant",
    "default",
  );
  const hrefs = await result.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  expect(hrefs.filter((h) => h === where.trainingPath)).toHaveLength(1);
  expect(new Set(hrefs).size).toBe(hrefs.length);
  await next.click();
  await expect(page).toHaveURL(new RegExp(`${where.quizzes[1]}$`));
  await expect(page.getByText(text("de", "quiz.independence.confirm"))).toBeVisible();
});

/** Answers every question of the round right, up to the result screen. */
async function finishQuestionnaire(page: Page, lang: string): Promise<void> {
  for (let step = 0; step < 6; step++) {
    await answer(page, lang, rightOnes);
    await skipPopup(page);
    const finish = page.getByRole("button", { name: exactly(lang, "quiz.finish") });
    if (await finish.isVisible()) {
      await finish.click();
      await expect(page.getByTestId("quiz-result")).toBeVisible();
      return;
    }
    await page.getByRole("button", { name: exactly(lang, "quiz.nextQuestion") }).click();
    await expect(page.getByTestId("question-text")).toBeVisible();
  }
  throw new Error("the questionnaire did not finish in six questions");
}

/* ---------- Keyboard and focus ---------- */

/** Presses Tab until `target` has the focus (keyboard only: no click, no focus() call). */
async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach ${target}`);
}

/** The on-screen order of the answer cards that are right. */
async function rightCardsInOrder(page: Page, q: YamlQuestion): Promise<string[]> {
  const shown = await page.locator("form [role=radio], form [role=checkbox]").allInnerTexts();
  const right = new Set(rightOnes(q).map((a) => a.text));
  return shown.map((s) => s.trim()).filter((s) => right.has(s));
}

test("a whole questionnaire by keyboard alone, the focus on what changed after every step", async ({ page }) => {
  const lang = "de";
  const { where } = await learner(page, lang, (w) => w.trainingPath);
  await tabTo(page, page.getByRole("button", { name: exactly(lang, "questionnaires.start") }));
  await page.keyboard.press("Enter");
  // The training has a wiki article and SHOW_READ_WIKI_FIRST is on: the dialog comes first.
  const wiki = page.getByRole("dialog", { name: exactly(lang, "wikiDialog.title") });
  await tabTo(page, wiki.getByRole("button", { name: exactly(lang, "wikiDialog.toQuiz") }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: exactly(lang, "quiz.independence.title") })).toBeFocused();
  await tabTo(page, page.getByRole("checkbox", { name: exactly(lang, "quiz.independence.confirm") }));
  await page.keyboard.press("Space");
  await tabTo(page, page.getByRole("button", { name: exactly(lang, "quiz.goToQuestion") }));
  await page.keyboard.press("Enter");

  for (let step = 0; step < 6; step++) {
    // 'Go to question' and 'next question' move the focus to the new question.
    await expect(page.getByTestId("question-text")).toBeFocused();
    const q = await questionOnScreen(page);
    for (const name of await rightCardsInOrder(page, q)) {
      const choice = card(page, name);
      await tabTo(page, choice);
      await page.keyboard.press("Space");
      await expect(choice).toHaveAttribute("aria-checked", "true");
    }
    await tabTo(page, page.getByRole("button", { name: exactly(lang, "quiz.continue") }));
    await page.keyboard.press("Enter");
    // The pop-up takes the focus while it shows, then the verdict.
    await expect(page.getByTestId("feedback-popup")).toBeFocused();
    await runTimers(page, POPUP_WRONG_MS);
    const verdict = page.getByTestId("verdict");
    await expect(verdict).toBeFocused();
    await expect(verdict).toHaveText(text(lang, "quiz.right"));
    await expect(verdict).toBeInViewport();
    const finish = page.getByRole("button", { name: exactly(lang, "quiz.finish") });
    if (await finish.isVisible()) {
      await tabTo(page, finish);
      await page.keyboard.press("Enter");
      // The result screen: the focus on its next action, the next questionnaire.
      const next = page.getByTestId("quiz-result").getByRole("link", {
        name: exactly(lang, "quiz.result.nextQuestionnaire", {
          name: text(lang, "questionnaires.name", { name: "2" }),
        }),
      });
      await expect(next).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(new RegExp(`${where.quizzes[1]}$`));
      await expect(page.getByRole("heading", { name: exactly(lang, "quiz.independence.title") })).toBeFocused();
      return;
    }
    await tabTo(page, page.getByRole("button", { name: exactly(lang, "quiz.nextQuestion") }));
    await page.keyboard.press("Enter");
  }
  throw new Error("the questionnaire did not finish in six questions");
});

/* ---------- The phone quiz ---------- */

test("on phones the action sits at the bottom of the screen, the verdict in view, images open full screen @phone", async ({
  page,
}) => {
  const phone = test.info().project.name === "phone";
  await learner(page, "de", firstQuiz);
  await startQuiz(page, "de");
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  /** On phones the action spans the screen's width at its bottom edge; on desktops it follows the card. */
  const expectThumbZone = async (button: Locator) => {
    const box = await button.boundingBox();
    expect(box).not.toBeNull();
    if (!box) return;
    if (phone) {
      expect(box.y + box.height).toBeGreaterThan(viewport.height - 72);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      expect(box.width).toBeGreaterThan(viewport.width - 48);
    } else {
      expect(await button.evaluate((b) => getComputedStyle(b.parentElement as Element).position)).toBe("static");
    }
  };
  let sawImage = false;
  for (let step = 0; step < 6; step++) {
    await expectThumbZone(page.getByRole("button", { name: exactly("de", "quiz.continue") }));
    await answer(page, "de", rightOnes);
    await skipPopup(page);
    const verdict = page.getByTestId("verdict");
    await expect(verdict).toBeInViewport({ ratio: 1 });
    // Not under the page header either.
    const header = await page.locator("header").boundingBox();
    expect((await verdict.boundingBox())?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
    const image = page.getByTestId("explanation-image");
    if (!sawImage && (await image.count()) > 0) {
      sawImage = true;
      await image.click();
      const dialog = page.getByRole("dialog", { name: exactly("de", "quiz.image.title") });
      await expect(dialog).toBeVisible();
      const zoomed = dialog.getByTestId("zoomed-image");
      await expect(zoomed).toBeVisible();
      expect((await dialog.boundingBox())?.width).toBe(viewport.width);
      // Pinch-zoom is allowed: on the image ('manipulation' is pan-x pan-y pinch-zoom) and by the viewport.
      expect(await zoomed.evaluate((img) => getComputedStyle(img).touchAction)).toMatch(/pinch-zoom|manipulation|auto/);
      expect(await page.locator("meta[name=viewport]").getAttribute("content")).not.toMatch(
        /user-scalable\s*=\s*(no|0)|maximum-scale\s*=\s*1(\.0)?\b/,
      );
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(image).toBeFocused();
      await image.click();
      await dialog.getByRole("button", { name: exactly("de", "common.close") }).click();
      await expect(dialog).toBeHidden();
      await expect(image).toBeFocused();
    }
    const finish = page.getByRole("button", { name: exactly("de", "quiz.finish") });
    const go = (await finish.isVisible())
      ? finish
      : page.getByRole("button", { name: exactly("de", "quiz.nextQuestion") });
    await expectThumbZone(go);
    if (go === finish) break;
    await go.click();
    await expect(page.getByTestId("question-text")).toBeVisible();
  }
  expect(sawImage, "the questionnaire has an explanation image").toBe(true);
});

/* ---------- Read aloud ---------- */

test("the question and explanation are read aloud in their own language, the verdict in the UI language, and reading stops with the question", async ({
  page,
}) => {
  // Watch the browser's own speech synthesis (each call still goes to it).
  await page.addInitScript(() => {
    const log: { speak: { text: string; lang: string }[]; cancel: number } = { speak: [], cancel: 0 };
    (window as unknown as { speechLog: typeof log }).speechLog = log;
    const synth = window.speechSynthesis;
    const speak = synth.speak.bind(synth);
    const cancel = synth.cancel.bind(synth);
    synth.speak = (u: SpeechSynthesisUtterance) => {
      log.speak.push({ text: u.text, lang: u.lang });
      speak(u);
    };
    synth.cancel = () => {
      log.cancel++;
      cancel();
    };
  });
  const speechLog = () =>
    page.evaluate(
      () => (window as unknown as { speechLog: { speak: { text: string; lang: string }[]; cancel: number } }).speechLog,
    );
  await learner(page, "en", firstQuiz);
  await startQuiz(page, "en");
  const q = await questionOnScreen(page);
  await page.getByTestId("read-aloud-question").click();
  await expect.poll(async () => (await speechLog()).speak.length).toBe(1);
  const [spoken] = (await speechLog()).speak;
  // Read in the question's language: the demo's questions are German (the interface is English).
  expect(spoken?.lang).toBe("de-DE");
  expect(spoken?.text).toContain(q.text);
  for (const a of q.answers) expect(spoken?.text).toContain(a.text);
  // Leaving the question stops the reading.
  const cancels = (await speechLog()).cancel;
  await answer(page, "en", rightOnes);
  expect((await speechLog()).cancel).toBeGreaterThan(cancels);
  await skipPopup(page);
  await page.getByTestId("read-aloud-feedback").click();
  await page.getByTestId("read-aloud-explanation").click();
  await expect.poll(async () => (await speechLog()).speak.length).toBe(3);
  const [, feedback, explanation] = (await speechLog()).speak;
  expect(feedback?.lang).toBe("en-GB");
  expect(explanation?.lang).toBe("de-DE");
  expect(feedback?.text).toContain(text("en", "quiz.right"));
  expect(feedback?.text).toContain(text("en", "quiz.mark.chosenRight"));
  expect(explanation?.text).toContain(text("en", "quiz.explanation"));
  expect(explanation?.text.length).toBeGreaterThan(80);
});

test("without speech synthesis in the browser there is no read-aloud button", async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    delete (Window.prototype as unknown as Record<string, unknown>).speechSynthesis;
    delete w.speechSynthesis;
    delete w.SpeechSynthesisUtterance;
  });
  await learner(page, "de", firstQuiz);
  await startQuiz(page, "de");
  await expect(page.getByTestId("question-text")).toBeVisible();
  await expect(page.getByRole("button", { name: exactly("de", "quiz.readAloud.start") })).toHaveCount(0);
});

/* ---------- Accessibility of every quiz screen, axe in German, German and English at 360 px ---------- */

/**
 * WCAG 1.4.11 (which axe does not check): the boundary of an unselected answer's radio or
 * checkbox reads at 3:1 or more against the card behind it.
 */
async function expectIndicatorContrast(page: Page, where: string): Promise<void> {
  const ratios = await page.locator("form [role=radio], form [role=checkbox]").evaluateAll((cards) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r = 0, g = 0, b = 0]: number[]) => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    /** The colour behind an element: the first ancestor's opaque background, tints laid over it. */
    const behind = (el: Element | null): number[] => {
      const layers: number[][] = [];
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        const alpha = c.length > 3 ? (c[3] ?? 1) : 1;
        if (alpha > 0) layers.push([...c.slice(0, 3), alpha]);
        if (alpha >= 1) break;
      }
      let colour = [255, 255, 255];
      for (const [r = 0, g = 0, b = 0, a = 1] of layers.reverse()) {
        colour = [
          r * a + (colour[0] ?? 0) * (1 - a),
          g * a + (colour[1] ?? 0) * (1 - a),
          b * a + (colour[2] ?? 0) * (1 - a),
        ];
      }
      return colour;
    };
    return cards
      .filter((card) => card.getAttribute("aria-checked") !== "true")
      .map((card) => {
        const indicator = card.querySelector("[class*=Indicator]") as Element;
        const border = rgb(getComputedStyle(indicator).borderTopColor);
        const a = lum(border);
        const b = lum(behind(card));
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      });
  });
  expect(ratios.length, `answer cards on ${where}`).toBeGreaterThan(0);
  for (const r of ratios) expect(r, `indicator contrast on ${where}`).toBeGreaterThanOrEqual(3);
}

/**
 * axe with the page's clock stopped, stepped on a millisecond at a time while axe runs (its own
 * timers need it): the pop-up, which leaves after 2.8 s of page time, stays for the whole check.
 */
async function accessibleWhileStopped(page: Page, where: string): Promise<void> {
  let done = false;
  const run = expectAccessible(page, where).then(
    () => null,
    (e: unknown) => e,
  );
  void run.then(() => {
    done = true;
  });
  while (!done) await page.clock.runFor(1);
  const error = await run;
  if (error) throw error;
}

/**
 * One screen state: axe (in German, in the learner's theme), `each` (a further check of the
 * theme's colours) and no sideways scrolling at 360 px; `each` again in the dark theme; then the
 * same state in English (alsoInEnglish): `english` (the texts it shows) and 360 px.
 */
async function checkScreen(
  page: Page,
  where: string,
  options: { stopClock?: boolean; each?: (theme: string) => Promise<void>; english?: (t: Texts) => Promise<void> } = {},
): Promise<void> {
  const axe = options.stopClock ? accessibleWhileStopped : expectAccessible;
  await axe(page, `${where} (${THEMES[0]})`);
  await options.each?.(THEMES[0]);
  await expectNoSidewaysScroll(page, where);
  if (options.each) {
    await applyPreference(page, "theme", "dark");
    await options.each("dark");
    await applyPreference(page, "theme", THEMES[0]);
  }
  await alsoInEnglish(page, where, async (t) => {
    await options.english?.(t);
  });
  if (options.stopClock) await expect(page.getByTestId("feedback-popup"), `${where} was checked`).toBeVisible();
}

/**
 * Every quiz screen, once: axe in German (default theme), and at 360 px in German and in English
 * (switched in place); the four themes' colours are checked over every component
 * variant (themes.spec.ts).
 */
test("every quiz screen passes axe without sideways scrolling, in German and English @phone", async ({ page }) => {
  // A whole questionnaire with axe on every screen: three times the usual time.
  test.slow();
  const { where } = await learner(page, "de", secondQuiz, THEMES[0]);
  const button = (t: Texts, key: string) => page.getByRole("button", { name: t(key), exact: true });
  await expect(page.getByTestId("quiz-locked")).toBeVisible();
  await checkScreen(page, "the locked questionnaire", {
    english: async (t) => {
      await expect(page.getByRole("heading", { name: t("quiz.locked.title"), exact: true })).toBeVisible();
    },
  });

  // From the locked one to the first, inside the app (its link there is a test of its own).
  await goInApp(page, firstQuiz(where));
  await expect(page.getByText(text("de", "quiz.independence.confirm"))).toBeVisible();
  await checkScreen(page, "the independence confirmation", {
    english: async (t) => {
      await expect(page.getByText(t("quiz.independence.confirm"))).toBeVisible();
      await expect(button(t, "quiz.goToQuestion")).toBeVisible();
    },
  });
  await startQuiz(page, "de");
  // The first answer wrong, with its marks; the rest right up to the result screen.
  let wrong = true;
  for (let step = 0; step < 12; step++) {
    if (step === 0) {
      await checkScreen(page, "a question", {
        each: (theme) => expectIndicatorContrast(page, `a question (${theme})`),
        english: async (t) => {
          await expect(button(t, "quiz.continue")).toBeVisible();
        },
      });
      // The clock stops before the answer is sent, so the pop-up's timer waits for the check
      // (3 s ahead of the page's own time: a jump never into its past; nothing is due meanwhile).
      const pageNow = await page.evaluate(() => Date.now());
      await page.clock.pauseAt(new Date(pageNow + 3_000));
    }
    await answer(page, "de", wrong ? oneWrong : rightOnes);
    if (step === 0) {
      await checkScreen(page, "the pop-up", {
        stopClock: true,
        english: async (t) => {
          // The pop-up's picture, or its words when the installation has no picture.
          const popup = page.getByTestId("feedback-popup");
          const verdict = popup
            .getByRole("img", { name: t("quiz.wrong"), exact: true })
            .or(popup.getByText(t("quiz.wrong"), { exact: true }));
          await expect(verdict).toBeVisible();
        },
      });
      await page.clock.resume();
    }
    await skipPopup(page);
    if (step === 0) {
      await checkScreen(page, "the verdict and explanation", {
        english: async (t) => {
          await expect(page.getByTestId("verdict")).toHaveText(t("quiz.wrong"));
          await expect(page.getByText(t("quiz.mark.chosenWrong")).first()).toBeVisible();
          await expect(button(t, "quiz.nextQuestion")).toBeVisible();
          // The help button's words, and its dialog, opened and closed in English too.
          await expect(button(t, "quiz.help.button")).toHaveText(t("quiz.help.short"));
          await button(t, "quiz.help.button").click();
          const help = page.getByRole("dialog", { name: t("quiz.help.title"), exact: true });
          await expect(help.getByRole("button", { name: t("quiz.help.send"), exact: true })).toBeVisible();
          await page.keyboard.press("Escape");
          await expect(help).toBeHidden();
        },
      });
      await page.getByRole("button", { name: exactly("de", "quiz.help.button") }).click();
      const help = page.getByRole("dialog", { name: exactly("de", "quiz.help.title") });
      await expect(help).toBeVisible();
      await expectAccessible(page, `the help dialog (${THEMES[0]})`);
      await page.keyboard.press("Escape");
      await expect(help).toBeHidden();
    }
    if ((await page.getByTestId("explanation-image").count()) > 0) {
      await page.getByTestId("explanation-image").click();
      await expect(page.getByTestId("zoomed-image")).toBeVisible();
      await checkScreen(page, "the full-screen image", {
        english: async (t) => {
          await expect(page.getByRole("dialog", { name: t("quiz.image.title"), exact: true })).toBeVisible();
        },
      });
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("zoomed-image")).toBeHidden();
    }
    wrong = false;
    const finish = page.getByRole("button", { name: exactly("de", "quiz.finish") });
    if (await finish.isVisible()) {
      await finish.click();
      const result = page.getByTestId("quiz-result");
      await expect(result).toBeVisible();
      const nextRound = result.getByRole("button", { name: exactly("de", "quiz.result.nextRound") });
      const again = await nextRound.isVisible();
      await checkScreen(page, `the result${again ? ", a round to go" : ""}`, {
        english: async (t) => {
          const title = t(again ? "quiz.result.failure" : "quiz.result.success");
          await expect(result.getByRole("heading", { name: title, exact: true })).toBeVisible();
          if (again) await expect(button(t, "quiz.result.nextRound")).toBeVisible();
        },
      });
      if (again) {
        await nextRound.click();
        await expect(page.getByTestId("question-text")).toBeVisible();
        continue;
      }
      return;
    }
    await page.getByRole("button", { name: exactly("de", "quiz.nextQuestion") }).click();
    await expect(page.getByTestId("question-text")).toBeVisible();
  }
  throw new Error("the questionnaire did not finish");
});
