import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../scripts/chromium.mjs";
import { startServer, stopServer } from "./server";

/*
 * Issue 30 "A fast start on a slow phone": the demo employee opens the start page in Chromium
 * throttled like a cheap phone on ward Wi-Fi — the CPU 4× slower, 150 ms round trips, 1.6 Mbit/s
 * down and 750 kbit/s up (Chrome DevTools' "Fast 3G"-like profile) — with nothing cached, and the
 * time until the first topic card is on the screen is taken. Target: within 3 s.
 */

const RUNS = Number(process.env.BENCH_SLOW_START_RUNS ?? 5);
const DEMO_PASSWORD = "Demo-1234!";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** What the page's window has that the bench's (Node's) types do not know. */
interface ServiceWorkerHolder {
  navigator: { serviceWorker: { controller: object | null } };
}

/** The page throttled like a cheap phone on ward Wi-Fi. */
async function slowPhone(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
}

export async function benchSlowStart(port: number): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-start-"));
  // The demo data, as `npm start` has it; the employee's start page as they see it.
  const server = await startServer(port, { DATA_DIR: dataDir, DEMO_DATA: "true", NOTIFICATION_JOB: "false" });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const base = `http://127.0.0.1:${port}`;
    const res = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "employee", password: DEMO_PASSWORD }),
    });
    if (!res.ok) throw new Error(`demo login failed: ${res.status}`);
    const session = (await res.json()) as { token: string; user: Record<string, unknown> };
    /** A browser context with nothing cached, logged in (the session is where the app keeps it). */
    const loggedIn = async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "de-DE" });
      await context.addInitScript(({ token, user }) => {
        localStorage.setItem("carecampus.token", token);
        localStorage.setItem("carecampus.user", JSON.stringify(user));
        const { avatar, language, theme } = user as { avatar?: string; language?: string; theme?: string };
        localStorage.setItem("carecampus.preferences", JSON.stringify({ avatar, language, theme }));
      }, session);
      return context;
    };
    /** Opens the start page; the time until the first topic card shows, in ms. */
    const untilFirstCard = async (page: Page) => {
      const started = performance.now();
      await page.goto(`${base}/`);
      await page.locator('[data-testid="topic-badge"]').first().waitFor({ timeout: 60_000 });
      return performance.now() - started;
    };
    const times: number[] = [];
    let scripts = 0;
    let scriptBytes = 0;
    let requests = 0;
    for (let run = 0; run < RUNS; run++) {
      // Nothing cached: each run is a first visit of the day.
      const context = await loggedIn();
      const page = await context.newPage();
      await slowPhone(context, page);
      let runScripts = 0;
      let runBytes = 0;
      let runRequests = 0;
      page.on("requestfinished", async (request) => {
        runRequests += 1;
        if (request.resourceType() !== "script") return;
        runScripts += 1;
        runBytes += (await request.sizes()).responseBodySize;
      });
      times.push(await untilFirstCard(page));
      scripts = runScripts;
      scriptBytes = runBytes;
      requests = runRequests;
      await context.close();
    }
    // The next visit of the day: the service worker, installed at the first, serves the app's code
    // from the device; only the page and the data come over the network.
    const again: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await loggedIn();
      const first = await context.newPage();
      await untilFirstCard(first);
      await first.waitForFunction(
        () => (globalThis as unknown as ServiceWorkerHolder).navigator.serviceWorker.controller !== null,
        undefined,
        { timeout: 60_000 },
      );
      await first.close();
      const page = await context.newPage();
      await slowPhone(context, page);
      again.push(await untilFirstCard(page));
      await context.close();
    }
    const seconds = (values: number[]) =>
      `p50 ${(median(values) / 1000).toFixed(2)} s (runs: ${values.map((t) => (t / 1000).toFixed(2)).join(", ")} s)`;
    console.log("\nslow phone (CPU 4× slower, 150 ms round trips, 1.6 Mbit/s): the employee's start page");
    console.log(
      `  first visit: first topic card after ${seconds(times)}; ${scripts} script files, ${(scriptBytes / 1024).toFixed(0)} KB of script as sent, ${requests} requests until then`,
    );
    console.log(`  next visit (the app's code from the service worker): first topic card after ${seconds(again)}`);
  } finally {
    await browser.close();
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
