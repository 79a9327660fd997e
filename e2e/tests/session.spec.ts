import { expect, test } from "@playwright/test";
import { createTeam, loginWith, openAs, runTimers, text } from "./helpers";

// This project's server issues 40-second tokens; the client refreshes when fewer than 10 s remain
// on its timer, which ends 20 s before the expiry: 10 s after the token was issued.
const REFRESH_AFTER_MS = 10_000;

/**
 * Tokens carry whole seconds: a refresh in the second its token was issued gets the same token
 * back (same claims, same expiry). The server's clock is real, so the test lets that second pass.
 */
async function pastIssueSecond(token: string | null): Promise<void> {
  if (token === null) throw new Error("no token after the login");
  const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { iat: number };
  await expect.poll(() => Math.floor(Date.now() / 1000)).toBeGreaterThan(claims.iat);
}

// The browser's clock runs the refresh timer at once. The server checks every token with its real
// clock: the refresh must be sent with the old, still valid token, and the calls after it must
// carry the new one.
test("the client refreshes its token before it expires and uses the new one", async ({ page }) => {
  const { supervisor } = await createTeam(page.request, ["supervisor"]);
  await page.clock.install();
  await openAs(page, supervisor, "/profile");
  const first = await page.evaluate(() => localStorage.getItem("carecampus.token"));
  await pastIssueSecond(first);

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

test("a link with another user's token asks before it replaces who is logged in", async ({ page }) => {
  const { supervisor, employee } = await createTeam(page.request, ["supervisor", "employee"]);
  await openAs(page, supervisor, "/profile", supervisor.password);
  const other = await loginWith(page.request, employee);
  const storedUser = () => page.evaluate(() => JSON.parse(localStorage.getItem("carecampus.user") ?? "{}").id);
  const supervisorId = await storedUser();

  // Declined: the supervisor stays, and the token is gone from the address.
  const asked = page.waitForEvent("dialog");
  const declined = page.goto(`/profile?token=${other.token}`);
  const dialog = await asked;
  expect(dialog.type()).toBe("confirm");
  expect(dialog.message()).toBe(
    text("de", "session.switchUser", {
      current: `${supervisor.name} ${supervisor.surname}`,
      next: `${employee.name} ${employee.surname}`,
    }),
  );
  await dialog.dismiss();
  await declined;
  await expect(page).toHaveURL(/\/profile$/);
  expect(await storedUser()).toBe(supervisorId);

  // Accepted: the employee is logged in.
  page.once("dialog", (d) => void d.accept());
  await page.goto(`/profile?token=${other.token}`);
  await expect(page).toHaveURL(/\/profile$/);
  await expect.poll(storedUser).toBe(other.user.id);
});

test("a login in another tab shows the new user's own data here, nothing cached of the last one", async ({
  page,
  context,
}) => {
  const { employee } = await createTeam(page.request, ["employee"]);
  // The demo's employee2 holds the certificate 'Händehygiene' (read only); the new employee none.
  await openAs(page, "employee2", "/");
  const hygiene = page
    .locator(".mantine-Card-root")
    .filter({ has: page.getByRole("link", { name: "Hygiene und Infektionsschutz" }) });
  await expect(hygiene.getByText(/^1\/\d+ Zertifikate$/)).toBeVisible();

  // Another tab follows a link with the new employee's token; this tab follows that login.
  const other = await loginWith(page.request, employee);
  const tab = await context.newPage();
  tab.once("dialog", (d) => void d.accept());
  await tab.goto(`/?token=${other.token}`);
  // The link logged in and reloads the tab without the token (spec §2): its address tells, not its
  // page, which that reload replaces.
  await expect(tab).toHaveURL(/\/$/);
  await tab.close();
  await expect(hygiene.getByText(/^0\/\d+ Zertifikate$/)).toBeVisible();
});

test("a certificate link clicked after the token was refreshed carries the new token", async ({ page, context }) => {
  await page.clock.install();
  // The demo's employee2 holds a certificate (read only).
  await openAs(page, "employee2", "/");
  await page.getByRole("link", { name: "Hygiene und Infektionsschutz" }).click();
  const badge = page.getByRole("link", { name: /Zertifikat öffnen/ }).first();
  await expect(badge).toBeVisible();
  const first = await page.evaluate(() => localStorage.getItem("carecampus.token"));
  await pastIssueSecond(first);
  await runTimers(page, REFRESH_AFTER_MS);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("carecampus.token"))).not.toEqual(first);
  const current = await page.evaluate(() => localStorage.getItem("carecampus.token"));
  // The PDF comes as an attachment: the request the click makes is what tells the token.
  const requested = context.waitForEvent("request", (r) => r.url().includes("/api/progress/export/certificate"));
  await badge.click();
  const request = await requested;
  expect(new URL(request.url()).searchParams.get("token")).toBe(current);
});
