import { expect, type Page, test } from "@playwright/test";
import { SSO_FACILITY } from "../playwright.config";
import { dismissTutorial, expectAccessible, expectNothingCutOff, openUserMenu, text } from "./helpers";

/*
 * Single sign-on (issue 32) through the reference identity provider (the test peer the main test
 * server starts, OIDC_PEER): its own login form, then back to CareCampus logged in; a second
 * provider (e2e/sso-providers.json) never answers, so the login page shows both states.
 */

/** The facility the peer's people belong to: made once, by whichever test comes first. */
async function ssoFacility(page: Page): Promise<void> {
  const login = await page.request.post("/api/auth/login", { data: { login: "superchris", password: "Demo-1234!" } });
  const { token } = (await login.json()) as { token: string };
  const res = await page.request.post("/api/auth/admin/facilities", {
    headers: { authorization: `Bearer ${token}` },
    data: { name: SSO_FACILITY },
  });
  // 409: the other project's test made it already.
  expect([200, 409], await res.text()).toContain(res.status());
}

/** The peer's form, as the person's employer shows it: username, password, sign in. */
async function signInAtPeer(page: Page, login: string): Promise<void> {
  await expect(page.getByRole("heading", { name: "Reference identity provider" })).toBeVisible();
  await page.getByLabel("Username").fill(login);
  await page.getByLabel("Password").fill("Demo-1234!");
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("staff log in with their employer's account on a phone, and logging out ends both sessions @phone", async ({
  page,
}) => {
  await ssoFacility(page);
  await page.goto("/login");
  const demo = page.getByRole("link", { name: "Mit Demo-Anmeldedienst anmelden" });
  await expect(demo).toBeVisible();
  // The provider that does not answer says so, and the password form is there as ever.
  await expect(page.getByRole("button", { name: "Microsoft ist gerade nicht erreichbar" })).toBeDisabled();
  await expect(page.getByLabel("Benutzername")).toBeFocused();
  await expectAccessible(page, "login with two single sign-on providers");
  await expectNothingCutOff(page, "login with two single sign-on providers");
  await demo.click();
  await signInAtPeer(page, "lena.sso");
  // Back at CareCampus, logged in as the person the provider named, in the provider's facility.
  await dismissTutorial(page);
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByRole("heading", { name: "Meine Schulungen" })).toBeVisible();
  const user = await page.evaluate(
    () => JSON.parse(localStorage.getItem("carecampus.user") ?? "{}") as { name: string; facility?: { name: string } },
  );
  expect(user).toMatchObject({ name: "Lena", facility: { name: SSO_FACILITY } });
  // The session's token never stays in the address.
  expect(page.url()).not.toContain("sso_token");
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: "Abmelden" }).click();
  // The provider asks whether to end its session too, then sends the person back to the login.
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem("carecampus.token"))).toBeNull();
  // The provider's session has ended: a new single sign-on asks for the password again.
  await page.getByRole("link", { name: "Mit Demo-Anmeldedienst anmelden" }).click();
  await expect(page.getByLabel("Username")).toBeVisible();
});

test("in English and the dark theme: a supervisor from the provider's roles, back on the page asked for", async ({
  page,
}) => {
  await ssoFacility(page);
  // The login page speaks the language (and shows the theme) kept from the last session here.
  await page.addInitScript(() =>
    localStorage.setItem("carecampus.preferences", JSON.stringify({ language: "en", theme: "dark" })),
  );
  await page.goto("/calendar");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  const sso = page.getByRole("group", { name: text("en", "login.sso.group") });
  await expect(sso.getByRole("link", { name: "Sign in with Demo-Anmeldedienst" })).toBeVisible();
  await expect(sso.getByRole("button", { name: "Microsoft cannot be reached right now" })).toBeDisabled();
  await expectAccessible(page, "login with two single sign-on providers, English, dark");
  await sso.getByRole("link", { name: "Sign in with Demo-Anmeldedienst" }).click();
  await signInAtPeer(page, "paul.sso");
  await dismissTutorial(page);
  // The page asked for before the login; the calendar is a supervisor's (the provider's role mapping).
  await expect(page).toHaveURL(/\/calendar$/);
  const user = await page.evaluate(
    () => JSON.parse(localStorage.getItem("carecampus.user") ?? "{}") as { roles: string[] },
  );
  expect([...user.roles].sort()).toEqual(["employee", "supervisor"]);
});

test("a refused single sign-on comes back to the login page, which says why", async ({ page }) => {
  await page.goto("/api/auth/sso/demo/callback?code=forged&state=forged");
  await expect(page).toHaveURL(/\/login\?sso_error=1113$/);
  await expect(page.getByRole("alert")).toHaveText(text("de", "errors.1113"));
  await expect(page.getByLabel("Benutzername")).toBeVisible();
});
