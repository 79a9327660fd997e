import { expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "Demo-1234!";

interface ApiLogin {
  token: string;
  user: { id: number };
}

/** Logs in through the API (not the form) and returns the token and user. */
export async function apiLogin(page: Page, login: string, password = DEMO_PASSWORD): Promise<ApiLogin> {
  const res = await page.request.post("/api/auth/login", { data: { login, password } });
  expect(res.status(), `login ${login}`).toBe(200);
  return (await res.json()) as ApiLogin;
}

/** Opens `path` logged in as `login`, through the token-in-URL login of spec §2. */
export async function openAs(page: Page, login: string, path = "/", password = DEMO_PASSWORD): Promise<ApiLogin> {
  const session = await apiLogin(page, login, password);
  const sep = path.includes("?") ? "&" : "?";
  await page.goto(`${path}${sep}token=${session.token}`);
  await expect(page).not.toHaveURL(/token=/);
  await dismissTutorial(page);
  return session;
}

/** The tutorial start-up prompt greets every new session; answer 'no'. */
export async function dismissTutorial(page: Page): Promise<void> {
  const dialog = page.getByRole("dialog", { name: /Einführung|introduction/ });
  await dialog.waitFor({ state: "visible", timeout: 5_000 }).catch(() => {});
  if (await dialog.isVisible()) {
    await dialog.getByRole("button", { name: /^(Nein|No)$/ }).click();
    await expect(dialog).toBeHidden();
  }
}

export async function patchAs(page: Page, token: string, url: string, data: unknown): Promise<void> {
  const res = await page.request.patch(url, { data: data as object, headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), `${url} ${await res.text()}`).toBe(200);
}

export async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId("user-menu").click();
}
