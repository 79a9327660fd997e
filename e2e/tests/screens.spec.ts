import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import {
  apiLogin,
  applyPreference,
  callApi,
  createCommonTraining,
  createTeam,
  exactly,
  expectAccessible,
  expectNoSidewaysScroll,
  goInApp,
  loginWith,
  openAs,
  openUserMenu,
  setPreference,
  type TestUser,
  unique,
} from "./helpers";

/**
 * Every built screen and its dialogs, for each role that sees it: axe-core (WCAG 2.1 A/AA, no
 * serious or critical violation) once per screen state, in German; no sideways scrolling at
 * 360 px in German and in English (in the dark theme). The four themes' colours are checked over
 * every component variant (themes.spec.ts and the web app's themes.test.ts). A new screen is
 * added here when it is built.
 */

interface Screen {
  name: string;
  path: string;
  /** What shows once the screen has loaded its data. */
  ready: (page: Page) => Promise<void>;
  /** Dialogs or menus opened on this screen and scanned too; each leaves the screen as it was. */
  dialogs?: { name: string; open: (page: Page, lang: string) => Promise<void> }[];
}

const heading = (page: Page) => expect(page.locator("main h1").first()).toBeVisible();

/** The main content has loaded: a heading, and no page loader any more. */
async function loaded(page: Page, extra?: (page: Page) => Promise<void>): Promise<void> {
  await heading(page);
  await expect(page.locator(".mantine-Loader-root")).toHaveCount(0);
  if (extra) await extra(page);
}

async function closeWithEscape(page: Page): Promise<void> {
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("menu")).toHaveCount(0);
}

/**
 * Open as a user sees it: the focus inside what opened. An Escape pressed while it still opens
 * (the focus on its button) leaves it open: it failed runs for the user menu and the notification
 * list (the English pass has no scan between opening and Escape).
 */
async function focusInside(page: Page, role: "menu" | "dialog"): Promise<void> {
  await expect(page.getByRole(role)).toBeVisible();
  await expect
    .poll(() => page.evaluate((r) => document.activeElement?.closest(`[role="${r}"]`) !== null, role))
    .toBe(true);
}

const userMenu = {
  name: "user menu",
  open: async (page: Page) => {
    await openUserMenu(page);
    await focusInside(page, "menu");
  },
};
const notifications = {
  name: "notifications",
  open: async (page: Page) => {
    await page.getByTestId("notification-bell").click();
    await focusInside(page, "dialog");
  },
};
const version = {
  name: "version dialog",
  open: async (page: Page, lang: string) => {
    await page.getByRole("button", { name: new RegExp(exactly(lang, "version.open").source.slice(1, -1)) }).click();
    await focusInside(page, "dialog");
  },
};

/** The learner's way into the demo training 'Schweigepflicht' (it has a wiki link). */
async function learningPaths(request: APIRequestContext, who: TestUser): Promise<{ topic: string; training: string }> {
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
  return { topic: `/topic/${topic?.id}`, training: `/topic/${topic?.id}/training/${training?.id}` };
}

function employeeScreens(paths: { topic: string; training: string }): Screen[] {
  return [
    { name: "start page", path: "/", ready: (p) => loaded(p), dialogs: [userMenu, notifications, version] },
    { name: "profile", path: "/profile", ready: (p) => loaded(p) },
    { name: "account", path: "/account", ready: (p) => loaded(p) },
    { name: "topic", path: paths.topic, ready: (p) => loaded(p) },
    {
      name: "training",
      path: paths.training,
      ready: (p) => loaded(p),
      dialogs: [
        {
          name: "wiki-first dialog",
          open: async (page) => {
            await page.getByTestId("questionnaire").first().getByRole("button").click();
            await expect(page.getByRole("dialog")).toBeVisible();
          },
        },
      ],
    },
    { name: "tutorial", path: "/help", ready: (p) => loaded(p) },
    { name: "wiki", path: "/wiki", ready: (p) => loaded(p) },
    { name: "wiki topic", path: "/wiki/hygiene", ready: (p) => loaded(p) },
    { name: "wiki page", path: "/wiki/hygiene/haendehygiene", ready: (p) => loaded(p) },
    { name: "not found", path: "/no-such-page", ready: (p) => loaded(p) },
  ];
}

function staffScreens(employeeId: number, questionId: number): Screen[] {
  return [
    {
      name: "users",
      path: "/users",
      ready: (p) => loaded(p, (page) => expect(page.getByTestId("user-card").first()).toBeVisible()),
    },
    { name: "new user", path: "/edituser", ready: (p) => loaded(p) },
    { name: "edit user", path: `/edituser/${employeeId}`, ready: (p) => loaded(p) },
    { name: "progress", path: "/progress", ready: (p) => loaded(p) },
    {
      name: "calendar",
      path: "/calendar",
      ready: (p) => loaded(p, (page) => expect(page.getByTestId("calendar")).toBeVisible()),
    },
    { name: "help requests", path: "/helprequests", ready: (p) => loaded(p) },
    { name: "help request", path: `/helprequests/${questionId}`, ready: (p) => loaded(p) },
    { name: "partner courses", path: "/partner-courses", ready: (p) => loaded(p) },
    { name: "authoring", path: "/authoring", ready: (p) => loaded(p) },
  ];
}

/** Opens the first of the buttons named `key` (in `lang`) and waits for its dialog. */
function dialogFrom(name: string, key: string) {
  return {
    name,
    open: async (page: Page, lang: string) => {
      await page
        .getByRole("button", { name: exactly(lang, key) })
        .first()
        .click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  };
}

/** What only Super-Admins see: the user import, the facility inputs, the editing of common content. */
function superAdminScreens(draftId: number): Screen[] {
  return [
    {
      name: "users (Super-Admin)",
      path: "/users",
      ready: (p) => loaded(p),
      dialogs: [dialogFrom("user import", "usersImport.open")],
    },
    { name: "new user (Super-Admin)", path: "/edituser", ready: (p) => loaded(p) },
    {
      name: "authoring (Super-Admin)",
      path: "/authoring",
      ready: (p) => loaded(p, (page) => expect(page.getByTestId("authoring-training").first()).toBeVisible()),
      dialogs: [
        dialogFrom("new topic", "authoring.newTopic"),
        dialogFrom("new training", "authoring.newTraining"),
        dialogFrom("new questionnaire", "authoring.newQuestionnaire"),
      ],
    },
    {
      name: "questionnaire editor",
      path: `/authoring/questionnaire/${draftId}`,
      ready: (p) => loaded(p),
      dialogs: [dialogFrom("question import", "authoring.import.button"), previewExplanation],
    },
  ];
}

/** The editor's preview, answered once: the learner's explanation inside the dialog. */
const previewExplanation = {
  name: "preview: explanation",
  open: async (page: Page, lang: string) => {
    await page.getByRole("button", { name: exactly(lang, "authoring.preview.button") }).click();
    const dialog = page.getByRole("dialog", { name: exactly(lang, "authoring.preview.title") });
    await dialog.getByRole("button", { name: exactly(lang, "quiz.goToQuestion") }).click();
    await dialog.getByText("Am Empfang", { exact: true }).click();
    await dialog.getByRole("button", { name: exactly(lang, "quiz.continue") }).click();
    await expect(dialog.getByTestId("explanation")).toBeVisible();
  },
};

/**
 * Scans every screen of `who` with axe in German (the default theme), then shows it in English in
 * the dark theme; at 360 px in both languages (English words are longer in places).
 */
async function scanAll(page: Page, who: TestUser, screens: Screen[]): Promise<void> {
  await setPreference(page.request, who, "language", "de");
  await openAs(page, who, "/", who.password);
  for (const lang of ["de", "en"]) {
    if (lang !== "de") {
      await applyPreference(page, "language", lang);
      await applyPreference(page, "theme", "dark");
    }
    const scan = (where: string) =>
      lang === "de" ? expectAccessible(page, `${where} (${lang})`, { soft: true }) : Promise.resolve();
    for (const screen of screens) {
      await test.step(`${screen.name} · ${lang}`, async () => {
        // Inside the app, as a user goes from screen to screen (no reload of the whole app).
        await goInApp(page, screen.path);
        await screen.ready(page);
        await scan(screen.name);
        for (const dialog of screen.dialogs ?? []) {
          await dialog.open(page, lang);
          await scan(`${screen.name}: ${dialog.name}`);
          await closeWithEscape(page);
        }
        await expectNoSidewaysScroll(page, `${screen.name} (${lang})`);
      });
    }
  }
}

for (const [lang, theme] of [
  ["de", "carely"],
  ["en", "dark"],
] as const) {
  test(`login page (${lang})`, async ({ page }) => {
    // axe in German; both languages at 360 px, English in the theme its preferences name.
    await page.goto("/login");
    await page.evaluate(
      ([language, theme]) => localStorage.setItem("carecampus.preferences", JSON.stringify({ language, theme })),
      [lang, theme],
    );
    await page.reload();
    await expect(page.getByRole("button", { name: exactly(lang, "login.submit") })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    if (lang === "de") await expectAccessible(page, `login (${theme}, ${lang})`, { soft: true });
    await expectNoSidewaysScroll(page, `login (${lang})`);
  });
}

test("every employee screen: axe, German and English at 360 px", async ({ page }) => {
  test.setTimeout(240_000);
  const team = await createTeam(page.request, ["employee"]);
  const paths = await learningPaths(page.request, team.employee);
  await scanAll(page, team.employee, employeeScreens(paths));
});

test("every administrator screen: axe, German and English at 360 px", async ({ page }) => {
  test.setTimeout(240_000);
  const team = await createTeam(page.request, ["administrator", "employee"]);
  const { token } = await apiLogin(page, team.employee, team.employee.password);
  const asked = await page.request.post("/api/help", {
    data: { question_id: 1 },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  // The staff's help request page is per question.
  await scanAll(page, team.administrator, staffScreens(team.employee.id, 1));
});

test("every Super-Admin screen: axe, German and English at 360 px", async ({ page }) => {
  test.setTimeout(240_000);
  const { superchris } = await createTeam(page.request, ["superchris"]);
  // A draft of its own in a topic and training of its own: learners never see a draft.
  const common = await createCommonTraining(page.request);
  const draft = await callApi(page.request, common.contentManager, "POST", "/authoring/questionnaires", {
    training_id: common.training,
    name: `Entwurf ${unique()}`,
  });
  // One question, for the preview.
  await callApi(page.request, common.contentManager, "POST", `/authoring/questionnaires/${draft.id}/questions`, {
    type: "single",
    text: "Wo hängt der Alarmplan?",
    answers: [
      { text: "Am Empfang", correct: true },
      { text: "Im Keller", correct: false },
    ],
    explanation: "<p>Der Alarmplan hängt <strong>am Empfang</strong>.</p>",
    hint: "Denken Sie an den Eingang.",
    media: null,
  });
  await scanAll(page, superchris, superAdminScreens(draft.id));
});

test("the version label covers no content at 800 and 1024 px, and sits bottom left where there is room", async ({
  page,
}) => {
  const team = await createTeam(page.request, ["employee"]);
  await openAs(page, team.employee, "/", team.employee.password);
  const label = page.getByRole("button", { name: new RegExp(exactly("de", "version.open").source.slice(1, -1)) });
  const content = page.locator("main .mantine-Container-root").first();
  for (const width of [800, 1024]) {
    await page.setViewportSize({ width, height: 700 });
    await expect(label).toBeAttached();
    // In the page's flow, below the content: nothing of the content lies under it.
    const [box, main] = await Promise.all([label.boundingBox(), content.boundingBox()]);
    expect(box && main && box.y >= main.y + main.height, `label below the content at ${width} px`).toBe(true);
  }
  await page.setViewportSize({ width: 1440, height: 800 });
  const box = await label.boundingBox();
  const main = await content.boundingBox();
  // Fixed bottom left, in the margin beside the content.
  expect(box && main && box.x + box.width <= main.x && box.y + box.height <= 800, "label in the left margin").toBe(
    true,
  );
});
