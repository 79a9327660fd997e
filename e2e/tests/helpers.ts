import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";

export const DEMO_PASSWORD = "Demo-1234!";
/** The password of every user the factories create. */
export const TEST_PASSWORD = "Test-1234!";
const TUTORIAL_PROMPT_KEY = "carecampus.tutorial-prompt";

type Role = "superchris" | "contentmanager" | "administrator" | "supervisor" | "employee";

interface ApiLogin {
  token: string;
  user: { id: number };
}

/** Who logs in: a demo login (demo password) or a user the factories made. */
export type Who = string | { login: string; password: string };

/** Logs in through the API (not the form) and returns the token and user. */
export async function apiLogin(page: Page, who: Who, password = DEMO_PASSWORD): Promise<ApiLogin> {
  return loginWith(page.request, who, password);
}

export async function loginWith(request: APIRequestContext, who: Who, password = DEMO_PASSWORD): Promise<ApiLogin> {
  const creds = typeof who === "string" ? { login: who, password } : { login: who.login, password: who.password };
  const res = await request.post("/api/auth/login", { data: creds });
  expect(res.status(), `login ${creds.login}`).toBe(200);
  return (await res.json()) as ApiLogin;
}

/** How many sessions this worker has written into pages: a later one wins over an earlier one. */
let sessionsWritten = 0;

/**
 * Opens `path` logged in as `who`. The session is written where the app keeps it (session/store.ts:
 * the token, the user and their preferences in local storage) by a script that runs before the
 * app's own in the next document of this page, so the screen loads once; the token link of spec
 * §2 loads it twice (logging in, then again without the token) and has tests of its own
 * (session.spec.ts, help.spec.ts). The script writes once per tab (marked in session storage, which
 * a reload keeps): a reload afterwards, a logout, a renewed token stay the app's own. Opening as
 * another user later in the test writes that session over it, once again.
 */
export async function openAs(page: Page, who: Who, path = "/", password = DEMO_PASSWORD): Promise<ApiLogin> {
  const session = await apiLogin(page, who, password);
  sessionsWritten += 1;
  await page.addInitScript(
    ({ seq, token, user }) => {
      if (window.top !== window || Number(sessionStorage.getItem("e2e.session") ?? 0) >= seq) return;
      sessionStorage.setItem("e2e.session", String(seq));
      const { avatar, language, theme } = user as { avatar?: string; language?: string; theme?: string };
      localStorage.setItem("carecampus.token", token);
      localStorage.setItem("carecampus.user", JSON.stringify(user));
      localStorage.setItem("carecampus.preferences", JSON.stringify({ avatar, language, theme }));
    },
    { seq: sessionsWritten, ...session },
  );
  await page.goto(path);
  await dismissTutorial(page);
  return session;
}

/**
 * The tutorial start-up prompt greets a new session of a user who has not turned it off; answer
 * 'no'. Whether it shows is decided from what the app itself decides it from (the stored user
 * and the tab's session storage), so no time is spent waiting for a dialog that never comes.
 */
export async function dismissTutorial(page: Page): Promise<void> {
  // Logged in: the app has stored the user (the form login gets there a moment after its click).
  await expect.poll(() => page.evaluate(() => localStorage.getItem("carecampus.user") !== null)).toBe(true);
  const prompts = await page.evaluate((key) => {
    const user = JSON.parse(localStorage.getItem("carecampus.user") ?? "{}") as { show_help_redirect?: boolean };
    // The QM notice, when due, comes first; the prompt waits until it is closed.
    const qmDue =
      document.querySelector<HTMLMetaElement>('meta[name="show-carely-qm-msg"]')?.content === "true" &&
      !document.cookie.split("; ").some((c) => c.startsWith("dont-show-carely-qm-msg-again="));
    return user.show_help_redirect === true && sessionStorage.getItem(key) === null && !qmDue;
  }, TUTORIAL_PROMPT_KEY);
  if (!prompts) return;
  await answerTutorial(page, /^(Nein|No)$/);
}

/**
 * Answers the tutorial start-up prompt with the button named `button`. It opens once the screen
 * behind it is drawn, moving into place: answered when it stands still, as a user taps it (a
 * click while it still moved landed beside "Nein" once in CI).
 */
export async function answerTutorial(page: Page, button: RegExp): Promise<void> {
  const dialog = page.getByRole("dialog", { name: /Einführung|introduction/ });
  const answer = dialog.getByRole("button", { name: button });
  await expect(answer).toBeVisible();
  await transitionsDone(page);
  await answer.click();
  await expect(dialog).toBeHidden();
}

/**
 * Goes to `path` inside the running app, as its own links do (React Router follows the history),
 * without loading the page anew; resolves once the shell shows that screen (its main landmark
 * names the path in the render that shows it, Shell.tsx), never while the last one still shows.
 */
export async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
  const pathname = new URL(path, "http://x").pathname;
  await expect(page.locator("main[data-path]")).toHaveAttribute("data-path", pathname);
}

export async function patchAs(page: Page, token: string, url: string, data: unknown): Promise<void> {
  const res = await page.request.patch(url, { data: data as object, headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), `${url} ${await res.text()}`).toBe(200);
}

export async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId("user-menu").click();
}

/* ---------- Factories: every test makes its own facility and users (workers run in parallel) ---------- */

/**
 * A suffix no other test of this run uses: the worker's index and a random part. Lower-case
 * letters and digits only, so it fits logins, names and searches alike.
 */
export function unique(): string {
  return `w${test.info().parallelIndex}${crypto.randomBytes(4).toString("hex")}`;
}

export interface Facility {
  id: number;
  name: string;
}

export interface TestUser {
  id: number;
  login: string;
  password: string;
  name: string;
  surname: string;
  roles: Role[];
}

/** Tokens live 40 s on one of the test servers: a cached one is used for 15 s at most. */
const TOKEN_REUSE_MS = 15_000;
const tokens = new Map<string, { token: string; at: number }>();

/** Where a token is kept: the test's server and the login. */
const tokenKey = (who: Who) => `${test.info().project.use.baseURL ?? ""} ${typeof who === "string" ? who : who.login}`;

/** A token of `who` on this test's server, reused while it is young (one login, not one per call). */
export async function tokenOf(request: APIRequestContext, who: Who): Promise<string> {
  const key = tokenKey(who);
  let cached = tokens.get(key);
  if (!cached || Date.now() - cached.at > TOKEN_REUSE_MS) {
    const at = Date.now();
    cached = { token: (await loginWith(request, who)).token, at };
    tokens.set(key, cached);
  }
  return cached.token;
}

/** The demo Super-Admin acts for the factories (read-only use of the demo data). */
async function superchris(request: APIRequestContext): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await tokenOf(request, "superchris")}` };
}

/** A call of the API as `who` that must answer 200; its JSON. */
export async function callApi(
  request: APIRequestContext,
  who: Who,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  data?: unknown,
) {
  const res = await request.fetch(`/api${url}`, {
    method,
    headers: { authorization: `Bearer ${await tokenOf(request, who)}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(200);
  return res.json();
}

/** A new facility named `Haus <label> <unique>`. */
export async function createFacility(request: APIRequestContext, label = "Test"): Promise<Facility> {
  const res = await request.post("/api/auth/admin/facilities", {
    headers: await superchris(request),
    data: { name: `Haus ${label} ${unique()}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Facility;
}

export interface UserSpec {
  roles?: Role[];
  /** Required for administrator, supervisor and employee; none for superchris and contentmanager. */
  facility?: Facility | null;
  name?: string;
  /** Defaults to `Test <unique>`; the login is `<name>.<unique>`. */
  surname?: string;
  salutation?: "Mr" | "Ms" | "-";
  activities?: number[];
  qualifications?: number[];
  /**
   * The tutorial's start-up prompt (spec §2) greets the user's new sessions: only for the tests
   * of the prompt itself. Otherwise it is turned off as the user's 'don't ask again' does (DELETE
   * /account/help_redirect_dialog), so no test of another screen spends a dialog per page load.
   */
  tutorialPrompt?: boolean;
}

/** A new user through POST /api/auth/admin/users, with TEST_PASSWORD. */
export async function createUser(request: APIRequestContext, spec: UserSpec = {}): Promise<TestUser> {
  const suffix = unique();
  const name = spec.name ?? "Tessa";
  const user = {
    name,
    surname: spec.surname ?? `Test ${suffix}`,
    salutation: spec.salutation ?? "-",
    login: `${name
      .toLowerCase()
      .normalize("NFD")
      .replace(/[^a-z]/g, "")}.${suffix}`,
    password: TEST_PASSWORD,
    roles: spec.roles ?? ["employee"],
    facility: spec.facility?.id ?? null,
    activities: spec.activities ?? [],
    qualifications: spec.qualifications ?? [],
  };
  const res = await request.post("/api/auth/admin/users", { headers: await superchris(request), data: user });
  expect(res.status(), await res.text()).toBe(200);
  const { id } = (await res.json()) as { id: number };
  const made = { id, login: user.login, password: user.password, name, surname: user.surname, roles: user.roles };
  if (!spec.tutorialPrompt) await callApi(request, made, "DELETE", "/account/help_redirect_dialog");
  return made;
}

/** A facility with one user of each given role in it (employee by default). */
export async function createTeam<const R extends Role>(
  request: APIRequestContext,
  roles: readonly R[],
  { tutorialPrompt = false }: Pick<UserSpec, "tutorialPrompt"> = {},
): Promise<{ facility: Facility } & Record<R, TestUser>> {
  const facility = await createFacility(request);
  const team = { facility } as { facility: Facility } & Record<R, TestUser>;
  for (const role of roles) {
    const facilityless = role === "superchris" || role === "contentmanager";
    (team as Record<R, TestUser>)[role] = await createUser(request, {
      roles: [role],
      facility: facilityless ? null : facility,
      name: NAMES[role],
      tutorialPrompt,
    });
  }
  return team;
}

export interface CommonTraining {
  topic: number;
  training: number;
  /** The training's name (`Alarmplan-Schulung <unique>`). */
  name: string;
  /** The content manager who wrote them. */
  contentManager: TestUser;
}

/**
 * A common topic and training of their own, without questionnaires, written by a new content
 * manager: a questionnaire added there is the training's first (questionnaires are learnt in
 * order), and the demo topics that other tests count and click stay as they are.
 */
export async function createCommonTraining(request: APIRequestContext): Promise<CommonTraining> {
  const contentManager = await createUser(request, { roles: ["contentmanager"], facility: null, name: "Clara" });
  const topic = await callApi(request, contentManager, "POST", "/authoring/topics", {
    name: `Hausinterne Verfahren ${unique()}`,
    icon: "brandschutz",
    color: "#b91c1c",
  });
  const name = `Alarmplan-Schulung ${unique()}`;
  const training = await callApi(request, contentManager, "POST", "/authoring/trainings", {
    topic_id: topic.id,
    name,
    icon: "brandschutz",
    validity_months: 12,
    passive: false,
    points: 0,
    wiki_link: null,
  });
  return { topic: topic.id, training: training.id, name, contentManager };
}

/** The demo's in-person resuscitation course: its topic's id, its own and its name. */
export async function demoPassiveCourse(
  request: APIRequestContext,
  who: Who,
): Promise<{ topic: number; id: number; name: string }> {
  const catalogue = (await callApi(request, who, "GET", "/filter/list/topics")) as {
    id: number;
    trainings: { id: number; name: string }[];
  }[];
  const topic = catalogue.find((tp) => tp.trainings.some((tr) => tr.name.startsWith("Reanimationstraining")));
  const training = topic?.trainings.find((tr) => tr.name.startsWith("Reanimationstraining"));
  expect(training, "the demo's resuscitation training").toBeDefined();
  return { topic: topic?.id as number, id: training?.id as number, name: training?.name as string };
}

/**
 * A certificate for `learner`: the demo's in-person resuscitation training marked passed by
 * `staff` (POST /progress/admin/users/{id}/passivetraining); the training's id and name.
 */
export async function markResuscitationPassed(
  request: APIRequestContext,
  staff: TestUser,
  learner: TestUser,
): Promise<{ id: number; name: string }> {
  const course = await demoPassiveCourse(request, staff);
  await callApi(request, staff, "POST", `/progress/admin/users/${learner.id}/passivetraining`, {
    topicID: course.topic,
    trainingID: course.id,
  });
  return { id: course.id, name: course.name };
}

const NAMES: Record<Role, string> = {
  superchris: "Chris",
  contentmanager: "Clara",
  administrator: "Andrea",
  supervisor: "Stefan",
  employee: "Emma",
};

/** The four visual themes (spec §1): the theme gallery is scanned in each (themes.spec.ts). */
export const THEMES = ["carely", "dark", "contrast", "ocean"] as const;

/** Sets one of a user's preferences (language, theme, avatar) through the API. */
export async function setPreference(
  request: APIRequestContext,
  who: TestUser,
  property: "language" | "theme" | "avatar",
  value: string,
): Promise<void> {
  const { token, user } = await loginWith(request, who);
  const res = await request.patch(`/api/preferences/${user.id}`, {
    data: { property, value },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  // A kept token carries the old language: the next call logs in again.
  tokens.delete(tokenKey(who));
}

/** A demo training's address and its questionnaires' addresses, read as the learner (the API the page uses). */
export async function trainingPlace(
  request: APIRequestContext,
  token: string,
  topicName: string,
  trainingName: string,
): Promise<{ trainingPath: string; quizzes: string[] }> {
  const headers = { authorization: `Bearer ${token}` };
  const topics = (await (await request.get("/api/progress/topics", { headers })).json()) as {
    id: number;
    name: string;
  }[];
  const topic = topics.find((t) => t.name === topicName);
  expect(topic, `the topic ${topicName}`).toBeDefined();
  const detail = (await (await request.get(`/api/progress/topics/${topic?.id}/trainings`, { headers })).json()) as {
    trainings: { id: number; name: string }[];
  };
  const training = detail.trainings.find((t) => t.name === trainingName);
  expect(training, `the training ${trainingName}`).toBeDefined();
  const trainingPath = `/topic/${topic?.id}/training/${training?.id}`;
  const list = (await (
    await request.get(`/api/progress/topics/${topic?.id}/trainings/${training?.id}/questionnaires`, { headers })
  ).json()) as { questionnaires: { id: number }[] };
  return { trainingPath, quizzes: list.questionnaires.map((q) => `${trainingPath}/questionnaire/${q.id}`) };
}

/** Sets a user's interface language through the API (tests of the other languages). */
export function setLanguage(request: APIRequestContext, who: TestUser, language: string): Promise<void> {
  return setPreference(request, who, "language", language);
}

/**
 * Runs the browser's timers `ms` ahead (page.clock must be installed), then sets its wall clock
 * back to the real time: the server checks tokens with its real clock, and a browser clock
 * running ahead would make the client think its token is about to expire.
 */
export async function runTimers(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
  await page.clock.setSystemTime(new Date());
}

/* ---------- The app's own texts, so one test runs in several languages ---------- */

const localeCache = new Map<string, Record<string, unknown>>();

/** The text of `key` in `lang`, from the web app's locale files, with {{placeholders}} filled. */
export function text(lang: string, key: string, values: Record<string, string | number> = {}): string {
  let locale = localeCache.get(lang);
  if (!locale) {
    const file = new URL(`../../apps/web/src/i18n/locales/${lang}.json`, import.meta.url);
    locale = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    localeCache.set(lang, locale);
  }
  const found = key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], locale);
  if (typeof found !== "string") throw new Error(`no text ${lang}:${key}`);
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** `text` as an exact, anchored pattern for getByRole's name. */
export function exactly(lang: string, key: string, values: Record<string, string | number> = {}): RegExp {
  // Accessible names have their white space (no-break spaces too) folded: match any.
  const escaped = text(lang, key, values).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replace(/\s+/g, "\\s+")}$`);
}

/* ---------- Accessibility: axe-core in the page ---------- */

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeOptions {
  /** The test goes on and reports every screen's violations at its end. */
  soft?: boolean;
}

/**
 * Runs axe-core (WCAG 2.1 A and AA rules) on the page as it is now and fails on any serious or
 * critical violation, naming each rule and the elements it found. Once per screen state, in the
 * theme the page has: the four themes' colours are checked over every component variant the app
 * uses (apps/web/src/theme/themes.test.ts computes each pair; themes.spec.ts scans the theme
 * gallery with axe in each theme), not again on every screen.
 */
export async function expectAccessible(page: Page, where: string, { soft = false }: AxeOptions = {}): Promise<void> {
  await transitionsDone(page);
  // Through the DevTools protocol, so the app's strict CSP need not allow it.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[]; failureSummary?: string }[];
      }[];
    }
    const result = await axe.run(document, {
      // Only violations are read: axe then stops collecting passes and incomplete results
      // after their first node (its documented way to run faster on large pages).
      resultTypes: ["violations"],
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.help} — ${v.nodes
            .map((n) => `${n.target.join(" ")} (${(n.failureSummary ?? "").replace(/\s+/g, " ").slice(0, 160)})`)
            .join(", ")}`,
      );
  });
  (soft ? expect.soft : expect)(violations, `axe on ${where}`).toEqual([]);
}

/**
 * Changes the logged-in user's theme or language as another tab of the browser would: saved
 * through the API with the page's own session, then announced to this tab by a storage event,
 * which the app follows in place (no reload, the screen and any open dialog stay as they are).
 */
export async function applyPreference(page: Page, property: "theme" | "language", value: string): Promise<void> {
  const status = await page.evaluate(
    async ([property, value]: string[]) => {
      const token = localStorage.getItem("carecampus.token");
      const user = JSON.parse(localStorage.getItem("carecampus.user") ?? "{}") as Record<string, unknown>;
      const res = await fetch(`/api/preferences/${user.id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ property, value }),
      });
      if (res.ok) {
        // As the app writes them: the user, and the preferences kept for the login page.
        localStorage.setItem("carecampus.user", JSON.stringify({ ...user, [String(property)]: value }));
        const kept = JSON.parse(localStorage.getItem("carecampus.preferences") ?? "{}") as Record<string, unknown>;
        localStorage.setItem("carecampus.preferences", JSON.stringify({ ...kept, [String(property)]: value }));
        window.dispatchEvent(new StorageEvent("storage", { key: "carecampus.user", storageArea: localStorage }));
      }
      return res.status;
    },
    [property, value],
  );
  expect(status, `PATCH ${property}=${value}`).toBe(200);
  // Polled from here, not in the page: a test may have stopped the page's clock.
  await expect
    .poll(() =>
      page.evaluate(
        (p) => (p === "theme" ? document.documentElement.dataset.theme : document.documentElement.lang),
        property,
      ),
    )
    .toBe(property === "language" && value === "br" ? "pt-BR" : value);
  // A new theme's colours come with a transition: what follows measures the theme, not half-way.
  if (property === "theme") await transitionsDone(page);
}

/**
 * The screen as it is now, shown in English (the app switches its language live, no reload): no
 * sideways scrolling at 360 px, and `check` (the English texts a step shows), then back to German.
 * A flow runs once, in German with its axe scans; its screen states are checked in English here
 * instead of in a second run of the whole flow. (The themes' colours are checked over every
 * component variant by the theme gallery, themes.spec.ts.)
 */
export async function alsoInEnglish(
  page: Page,
  where: string,
  check: (t: (key: string, values?: Record<string, string | number>) => string) => Promise<void> = async () => {},
): Promise<void> {
  await applyPreference(page, "language", "en");
  await check((key, values = {}) => text("en", key, values));
  await expectNoSidewaysScroll(page, `${where} (en)`);
  await applyPreference(page, "language", "de");
}

/**
 * Waits until no CSS transition or finite animation runs: a dialog fading in or colours changing
 * with the theme would be measured half-way.
 */
export async function transitionsDone(page: Page): Promise<void> {
  const running = () =>
    page.evaluate(
      () =>
        document
          .getAnimations()
          .filter((a) => a.playState === "running" && a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          .length,
    );
  // None running in two readings in a row (expect.poll's interval between them): a dropdown shows
  // (already 'visible' at opacity 0) a frame or two before its fade-in starts (Mantine's
  // Transition), and a scan in between measured its texts half faded (a date picker's weekdays
  // at 2.8:1, seen once in CI).
  let quiet = 0;
  await expect
    .poll(async () => {
      quiet = (await running()) === 0 ? quiet + 1 : 0;
      return quiet;
    })
    .toBeGreaterThanOrEqual(2);
}

/** Runs `check` with the page at 360 px, the narrowest phone, then returns to the project's size. */
async function atPhoneWidth(page: Page, check: () => Promise<void>): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 740 });
  try {
    await check();
  } finally {
    if (size) await page.setViewportSize(size);
  }
}

/**
 * At 360 px no word of `target`'s text is broken across two lines (a line may end at a space, a
 * hyphen or a dash): a long German compound such as "Brandschutzunterweisung" moves to a line of
 * its own instead of being split in the middle.
 */
export async function expectWordsWhole(page: Page, target: Locator, where: string): Promise<void> {
  await atPhoneWidth(page, () =>
    expect
      .poll(
        () =>
          target.evaluate((element) => {
            const broken: string[] = [];
            const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
            const range = document.createRange();
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const text = node.textContent ?? "";
              let lineTop: number | undefined;
              for (let i = 0; i < text.length; i++) {
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                if (!rect || /\s/.test(text[i] ?? "")) continue;
                const top = Math.round(rect.top);
                if (lineTop !== undefined && Math.abs(top - lineTop) > 2 && !/[\s\-–/]/.test(text[i - 1] ?? " "))
                  broken.push(`${text.slice(Math.max(0, i - 12), i)}|${text.slice(i, i + 12)}`);
                lineTop = top;
              }
            }
            return broken;
          }),
        { message: `a word broken across lines at 360 px on ${where}` },
      )
      .toEqual([]),
  );
}

/** At 360 px the page is no wider than the viewport (then back to the project's size). */
export async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  await atPhoneWidth(page, () =>
    expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
        message: `sideways scroll at 360 px on ${where}`,
      })
      .toBeLessThanOrEqual(0),
  );
}

/**
 * No text is cut off at 360 px: no element whose text overflows a box that hides the overflow
 * (an ellipsis, a clipped badge or button label). Left alone: visually hidden texts, and
 * truncations that say the whole text in a `title`.
 */
export async function expectNothingCutOff(page: Page, where: string): Promise<void> {
  await atPhoneWidth(page, () =>
    expect
      .poll(
        () =>
          page.evaluate(() => {
            const cut: string[] = [];
            for (const el of document.querySelectorAll<HTMLElement>("body *")) {
              if (!el.textContent?.trim() || el.closest("[title], .mantine-VisuallyHidden-root")) continue;
              if (el.scrollWidth <= el.clientWidth + 1) continue;
              const style = getComputedStyle(el);
              if (style.overflowX === "hidden" || style.overflowX === "clip" || style.textOverflow === "ellipsis")
                cut.push(`"${el.textContent.trim().slice(0, 40)}" (${el.scrollWidth} > ${el.clientWidth} px)`);
            }
            return cut;
          }),
        { message: `text cut off at 360 px on ${where}` },
      )
      .toEqual([]),
  );
}
