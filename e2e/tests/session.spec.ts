import { expect, test } from "@playwright/test";
import { createTeam, openAs, runTimers } from "./helpers";

// This project's server issues 40-second tokens; the client refreshes when fewer than 10 s remain
// on its timer, which ends 20 s before the expiry: 10 s after the token was issued.
const REFRESH_AFTER_MS = 10_000;

// The browser's clock runs the refresh timer at once. The server checks every token with its real
// clock: the refresh must be sent with the old, still valid token, and the calls after it must
// carry the new one.
test("the client refreshes its token before it expires and uses the new one", async ({ page }) => {
  const { supervisor } = await createTeam(page.request, ["supervisor"]);
  await page.clock.install();
  await openAs(page, supervisor, "/profile");
  const first = await page.evaluate(() => localStorage.getItem("carecampus.token"));
  expect(first).not.toBeNull();

  const refresh = page.waitForRequest((r) => r.url().includes("/api/auth/refresh") && r.method() === "POST");
  await runTimers(page, REFRESH_AFTER_MS);
  const request = await refresh;
  expect(request.headers().authorization).toBe(`Bearer ${first}`);
  const response = await request.response();
  if (!response) throw new Error("the refresh got no answer");
  expect(response.status()).toBe(200);
  const { token: second } = (await response.json()) as { token: string };
  expect(second).not.toEqual(first);
  // The client keeps the new token (or an even newer one, should its next refresh be due already).
  await expect.poll(() => page.evaluate(() => localStorage.getItem("carecampus.token"))).not.toEqual(first);

  // The next call carries a refreshed token and succeeds.
  const patch = page.waitForRequest((r) => r.url().includes("/api/preferences/") && r.method() === "PATCH");
  await page.getByText("Ozean", { exact: true }).click();
  const sent = await patch;
  expect(sent.headers().authorization).toMatch(/^Bearer .+/);
  expect(sent.headers().authorization).not.toBe(`Bearer ${first}`);
  expect((await sent.response())?.status()).toBe(200);
  await expect(page.getByText("Profil geändert")).toBeVisible();
  await page.getByText("Carely", { exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
});
