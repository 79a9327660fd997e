import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_ENV, CHROMIUM_PATH } from "../scripts/chromium.mjs";

// E2E_PORT moves both servers, so two runs (e.g. two working copies) do not collide.
const MAIN = Number(process.env.E2E_PORT ?? 3211);
const SHORT = MAIN + 1;
const INSTALLATION = MAIN + 2;
/** Specs for the other two servers: the 3-s session, and an installation's own settings. */
const OWN_SERVER = /(lockout|qm-notice|installation-settings|credentials|offline)\.spec/;
const LANGS = "MULTI_LANGUAGE=de,en,fr,es,br";
/** The facility whose people the reference identity provider logs in (sso.spec.ts makes it). */
export const SSO_FACILITY = "Haus-SSO-Test";

/**
 * Chromium features the tests turn off. Every browser window (one per test's context) preloaded
 * the address bar's pop-up as two WebUI pages, each in a renderer process of its own: measured
 * here, a third of the CPU a test's context and its first two page loads cost. A later
 * --disable-features replaces an earlier one, so Playwright's own list (its
 * chromiumSwitches.ts, 1.65) is repeated before ours.
 */
const DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  // Ours: the address bar's pop-ups, which a headless test never opens.
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
  "WebUIOmniboxFullPopup",
];

/**
 * Debian's Chromium headless shell when it is installed, else Chromium (scripts/chromium.mjs).
 * Measured here on the same 29 tests: a fifth less CPU and wall time than Chromium's own headless
 * mode, every test passing either way.
 */
const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--disable-features=${DISABLED_FEATURES.join(",")}`],
    // A UTF-8 character type whatever the shell's: downloads keep the names the server gives them.
    env: CHROMIUM_ENV,
  },
  locale: "de-DE",
  // The service worker precaches the whole app in each new context: only the tests of offline
  // use and of the update prompt (offline.spec.ts) let it run.
  serviceWorkers: "block" as const,
};

export default defineConfig({
  testDir: "./tests",
  // Every test makes its own facility and users (tests/helpers.ts): two at a time, in any order.
  // The demo users serve read only, except the notification spec's (about the demo data itself).
  workers: 2,
  fullyParallel: true,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: { trace: "off", screenshot: "only-on-failure", actionTimeout: 10_000 },
  projects: [
    {
      // Tests tagged @phone run at phone size only, unless also tagged @desktop. A flow runs once,
      // in German at phone size, and shows its screens in English in place (helpers.alsoInEnglish).
      name: "desktop",
      grep: /^(?:(?!@phone).)*$|@desktop/,
      testIgnore: OWN_SERVER,
      use: { ...chromium, baseURL: `http://127.0.0.1:${MAIN}`, viewport: { width: 1280, height: 800 } },
    },
    {
      name: "phone",
      grep: /@phone/,
      testIgnore: OWN_SERVER,
      use: {
        ...chromium,
        baseURL: `http://127.0.0.1:${MAIN}`,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      },
    },
    {
      name: "short-session",
      testMatch: /lockout\.spec/,
      use: { ...chromium, baseURL: `http://127.0.0.1:${SHORT}`, viewport: { width: 1280, height: 800 } },
    },
    {
      name: "installation",
      testMatch: /(qm-notice|installation-settings|credentials)\.spec/,
      use: { ...chromium, baseURL: `http://127.0.0.1:${INSTALLATION}`, viewport: { width: 1280, height: 800 } },
    },
    {
      // The service worker on a phone: offline start, kept certificates, the update prompt. On the
      // installation's server, which serves a copy of the web app the update test changes.
      name: "offline",
      testMatch: /offline\.spec/,
      use: {
        ...chromium,
        baseURL: `http://127.0.0.1:${INSTALLATION}`,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        serviceWorkers: "allow",
      },
    },
  ],
  webServer: [
    {
      // Single sign-on (issue 32, sso.spec): the reference identity provider (OIDC_PEER) for the
      // facility sso.spec makes, and a second provider that never answers (sso-providers.json).
      // Tokens live 40 s here, so a test can watch the client refresh one (spec §9); trainings may
      // also come in Turkish and Arabic, languages the interface does not speak, with a machine's
      // suggestions from the translation test peer (translations.spec). External
      // courses come from the reference partner (the test peer) on a free port; its demo courses
      // belong to two demo trainings, the others show 'no external trainings'.
      command: `node serve.mjs ${MAIN} ${LANGS} PUBLIC_URL=http://127.0.0.1:${MAIN} OIDC_PEER=true OIDC_PEER_FACILITY=${SSO_FACILITY} SSO_CONFIG_FILE=e2e/sso-providers.json CONTENT_LANGUAGES=en,fr,es,br,tr,ar TRANSLATION_PEER=true TOKEN_LIFETIME_SECONDS=40 LOGIN_RATE_LIMIT=1000 API_IP_MAX_ERRORS=100000 SHOW_READ_WIKI_FIRST=true SHOW_POINTS=true SHOW_EXTERNAL_TRAININGS=true PARTNER_PEER=true EXTERNAL_COURSES_CERTIFY=fall-risk-check=sturzprophylaxe-grundlagen`,
      url: `http://127.0.0.1:${MAIN}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      // Inactivity limit of 0.05 minutes (3 s), for the lockout dialog (its tests run the
      // browser's clock; nothing else runs here, so no other test races a 3-s lockout).
      command: `node serve.mjs ${SHORT} SESSION_TIME_IN_MINUTES=0.05 LOGIN_RATE_LIMIT=1000 API_IP_MAX_ERRORS=100000`,
      url: `http://127.0.0.1:${SHORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      // An installation with settings of its own: the QM notice on, its theme, the content
      // version, no question type, the legal bases, a logout portal, certificates also as signed
      // Open Badge credentials, and the five languages (credentials.spec reads the app in English).
      command: `node serve.mjs ${INSTALLATION} ${LANGS} LOGIN_RATE_LIMIT=1000 API_IP_MAX_ERRORS=100000 SHOW_CARELY_QM_MSG=true THEME=ocean SHOW_CONTENT_VERSION=true SHOW_QUESTION_TYPE=false SHOW_LEGAL_COMPLIANCE=true ALTERNATIVE_CALLBACK_URL=http://127.0.0.1:${INSTALLATION}/api/health VERIFIABLE_CREDENTIALS=true WEB_DIST_COPY=true`,
      url: `http://127.0.0.1:${INSTALLATION}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
  ],
});
