// npm run tutorial:screens — the tutorial's screenshots, made from the real product.
//
// Starts the built server (npm run build first; the npm script does) on a throw-away demo
// database, drives it in Chromium as the demo users, and writes every screen of both tutorial
// versions in every language into content/demo/tutorial/<audience>/images/<screen>-<lang>_2x.jpg
// (a phone's screen at twice its pixels). Run it after a change to a screen the tutorial shows;
// raise the demo package's version so installations import the new pictures.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "./chromium.mjs";

const root = new URL("..", import.meta.url).pathname;
const LANGS = ["de", "en", "fr", "es", "br"];
const PASSWORD = "Demo-1234!";
const VIEWPORT = { width: 390, height: 780 };
const only = process.argv.slice(2); // optional: screen names to remake

const locales = Object.fromEntries(
  LANGS.map((l) => [l, JSON.parse(fs.readFileSync(path.join(root, `apps/web/src/i18n/locales/${l}.json`), "utf8"))]),
);
/** A text of the app in `lang`, as an exact pattern for getByRole's name. */
const label = (lang, key) => {
  const value = key.split(".").reduce((o, k) => o?.[k], locales[lang]);
  if (typeof value !== "string") throw new Error(`no text ${lang}:${key}`);
  // Accessible names have their white space (no-break spaces too) folded: match any.
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
  return new RegExp(`^${escaped.replace(/\\\{\\\{\s*\w+\s*\\\}\\\}/g, ".*")}$`);
};

async function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-screens-"));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    MULTI_LANGUAGE: LANGS.join(","),
    DEMO_DATA: "true",
    PGLITE_FSYNC: "false",
    LOGIN_RATE_LIMIT: "10000",
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["apps/server/dist/main.mjs"], { cwd: root, env, stdio: "inherit" });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    base,
    stop: () =>
      new Promise((resolve) => {
        child.on("exit", () => {
          fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

async function api(base, token, method, url, body) {
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function login(base, who) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: who, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${who}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A new employee of Haus Sonnenhof for one picture: the quiz starts at its beginning. */
async function freshLearner(base, tag) {
  const admin = await login(base, "admin");
  const login_ = `lena.berger.${tag}`;
  await api(base, admin.token, "POST", "/auth/admin/users", {
    name: "Lena",
    surname: "Berger",
    salutation: "-",
    login: login_,
    password: PASSWORD,
    roles: ["employee"],
    facility: admin.user.facility?.id ?? null,
    activities: [],
    qualifications: [],
  });
  return login_;
}

/** The quiz of the first questionnaire of a training, found by its name through the learner's own API. */
async function quizPath(base, token, topicName, trainingName) {
  const topics = await api(base, token, "GET", "/progress/topics");
  const topic = topics.find((t) => t.name === topicName);
  const detail = await api(base, token, "GET", `/progress/topics/${topic.id}/trainings`);
  const training = detail.trainings.find((t) => t.name === trainingName);
  const qns = await api(base, token, "GET", `/progress/topics/${topic.id}/trainings/${training.id}/questionnaires`);
  return `/topic/${topic.id}/training/${training.id}/questionnaire/${qns.questionnaires[0].id}`;
}

async function startQuiz(page, lang) {
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: label(lang, "quiz.goToQuestion") }).click();
  await page.getByTestId("question-text").waitFor();
}

/** Every screen the tutorial shows: who, where, and what to do before the picture. */
const SCREENS = [
  // Staff screens first: the new learners of the quiz pictures must not show in the overview.
  { audience: "admin", screen: "progress", who: "supervisor", path: async () => "/progress" },
  {
    audience: "admin",
    screen: "matrix",
    who: "supervisor",
    path: async () => "/progress",
    async act(page, lang) {
      await page.getByText(label(lang, "progress.modeMatrix")).click();
      await page.getByTestId("progress-matrix").scrollIntoViewIfNeeded();
    },
  },
  { audience: "admin", screen: "edituser", who: "admin", path: async () => "/edituser" },
  {
    audience: "admin",
    screen: "import",
    who: "superchris",
    path: async () => "/users",
    async act(page, lang) {
      await page.getByRole("button", { name: label(lang, "usersImport.open") }).click();
      await page.getByTestId("import-dropzone").waitFor();
    },
  },
  {
    audience: "admin",
    screen: "calendar",
    who: "supervisor",
    path: async () => "/calendar",
    async act(page, lang) {
      await page
        .getByRole("button", { name: label(lang, "calendar.new") })
        .first()
        .click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("combobox", { name: label(lang, "calendar.topic") }).click();
      await page.getByRole("option", { name: "Erste Hilfe und Notfall", exact: true }).click();
      await dialog.getByRole("combobox", { name: label(lang, "calendar.training") }).click();
      await page.getByRole("option", { name: "Reanimationstraining (Präsenzkurs)", exact: true }).click();
      await dialog.getByTestId("invitee").first().waitFor();
      await dialog.getByTestId("invitees").scrollIntoViewIfNeeded();
    },
  },
  {
    audience: "admin",
    screen: "helprequests",
    who: "supervisor",
    path: async (base, token) => `/helprequests/${(await api(base, token, "GET", "/help"))[0].question_id}`,
  },
  { audience: "employee", screen: "home", who: "employee", path: async () => "/" },
  {
    audience: "employee",
    screen: "topic",
    who: "employee2",
    path: async (base, token) => `/topic/${(await api(base, token, "GET", "/progress/topics"))[0].id}`,
  },
  { audience: "employee", screen: "profile", who: "employee2", path: async () => "/profile" },
  {
    audience: "employee",
    screen: "quiz",
    who: "new learner",
    path: (base, token) => quizPath(base, token, "Datenschutz und Schweigepflicht", "Schweigepflicht"),
    async act(page, lang) {
      await startQuiz(page, lang);
      await page.locator("[class*=answer]").first().click();
    },
  },
  {
    audience: "employee",
    screen: "quiz-help",
    who: "new learner",
    path: (base, token) => quizPath(base, token, "Datenschutz und Schweigepflicht", "Schweigepflicht"),
    async act(page, lang) {
      await startQuiz(page, lang);
      await page.locator("[class*=answer]").first().click();
      await page.getByRole("button", { name: label(lang, "quiz.continue") }).click();
      await page.getByTestId("explanation").waitFor({ timeout: 15_000 });
      await page.getByRole("button", { name: label(lang, "quiz.help.button") }).click();
      await page.getByRole("dialog").waitFor();
    },
  },
];

const server = await startServer();
const browser = await chromium.launch({
  // The full Chromium (the screenshots show what users see), with the project's flags.
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: CHROMIUM_ARGS,
});
let written = 0;
try {
  for (const s of SCREENS.filter((x) => only.length === 0 || only.includes(x.screen))) {
    const dir = path.join(root, "content/demo/tutorial", s.audience, "images");
    fs.mkdirSync(dir, { recursive: true });
    for (const lang of LANGS) {
      const who = s.who === "new learner" ? await freshLearner(server.base, `${s.screen}-${lang}`) : s.who;
      const { token, user } = await login(server.base, who);
      await api(server.base, token, "PATCH", `/preferences/${user.id}`, { property: "language", value: lang });
      await api(server.base, token, "PATCH", `/preferences/${user.id}`, { property: "theme", value: "carely" });
      await api(server.base, token, "DELETE", "/account/help_redirect_dialog");
      const context = await browser.newContext({
        viewport: VIEWPORT,
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale: lang === "br" ? "pt-BR" : lang,
        reducedMotion: "reduce",
      });
      const page = await context.newPage();
      const target = await s.path(server.base, token);
      await page.goto(`${server.base}${target}${target.includes("?") ? "&" : "?"}token=${token}`);
      await page.waitForURL((u) => !u.searchParams.has("token"));
      await page.waitForLoadState("networkidle");
      if (s.act) await s.act(page, lang);
      await page.waitForLoadState("networkidle");
      // Let transitions and lazy images settle.
      await page.waitForTimeout(600);
      const file = path.join(dir, `${s.screen}-${lang}_2x.jpg`);
      await page.screenshot({ path: file, type: "jpeg", quality: 72 });
      written += 1;
      console.log(`${path.relative(root, file)} (${Math.round(fs.statSync(file).size / 1024)} KB)`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`${written} screenshots written.`);
