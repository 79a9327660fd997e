// @vitest-environment jsdom
import { api, ErrorCode, type LoginResponse } from "@carecampus/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Toasts } from "../../app/Toasts";
import i18n from "../../i18n";
import { sessionStore } from "../../session/store";
import { ApiFailure, held, stubApi } from "../../test/api";
import { cleanUpScreen, fieldLabelled, renderScreen, setUpComponentTests } from "../../test/render";
import { LoginPage } from "./LoginPage";

beforeAll(setUpComponentTests);
afterEach(cleanUpScreen);

const submit = () => screen.getByRole("button", { name: i18n.t("login.submit") });

function openLogin() {
  renderScreen(
    <>
      <Toasts />
      <LoginPage />
    </>,
    "/login",
  );
  fireEvent.change(fieldLabelled("login.username"), { target: { value: " emma " } });
  fireEvent.change(fieldLabelled("login.password"), { target: { value: "Demo-1234!" } });
}

describe("login page", () => {
  it("asks for both fields, and is pending while the login is checked", async () => {
    const checking = held<LoginResponse>();
    const requests = stubApi([
      { route: api.login, answer: () => checking.answer },
      { route: api.ssoProviders, answer: { providers: [] } },
    ]);
    renderScreen(<LoginPage />, "/login");
    expect(submit().hasAttribute("disabled")).toBe(true);
    fireEvent.change(fieldLabelled("login.username"), { target: { value: "emma" } });
    expect(submit().hasAttribute("disabled")).toBe(true);
    fireEvent.change(fieldLabelled("login.password"), { target: { value: "Demo-1234!" } });
    expect(submit().hasAttribute("disabled")).toBe(false);

    fireEvent.click(submit());
    await waitFor(() => expect(submit().getAttribute("data-loading")).toBe("true"));
    expect(submit().hasAttribute("disabled")).toBe(true);
    expect(requests.filter((r) => r.method === "POST")).toEqual([
      { method: "POST", url: "/api/auth/login", body: { login: "emma", password: "Demo-1234!" } },
    ]);
  });

  it("offers each single sign-on provider above the form: a link back to the page wanted, or unavailable", async () => {
    stubApi([
      {
        route: api.ssoProviders,
        answer: {
          providers: [
            { id: "entra", name: "Microsoft", available: true },
            { id: "keycloak", name: "Keycloak", available: false },
          ],
        },
      },
    ]);
    renderScreen(<LoginPage />, "/login");
    const link = await screen.findByRole("link", { name: i18n.t("login.sso.with", { name: "Microsoft" }) });
    const href = new URL(link.getAttribute("href") as string, "http://x");
    expect(href.pathname).toBe("/api/auth/sso/entra/login");
    expect(href.searchParams.get("redirect")).toBe("/");
    // The login's own value, kept when the link is followed: the session must come back with it.
    const nonce = href.searchParams.get("app_nonce") as string;
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    fireEvent.click(link);
    expect(localStorage.getItem("carecampus.sso-nonce")).toBe(nonce);
    const down = screen.getByRole("button", { name: i18n.t("login.sso.unavailable", { name: "Keycloak" }) });
    expect(down.hasAttribute("disabled")).toBe(true);
    // Above the password form, in the order of the page.
    const field = fieldLabelled("login.username");
    expect(link.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(submit()).toBeTruthy();
  });

  it("says why a single sign-on came back refused, and shows no buttons without providers", async () => {
    stubApi([{ route: api.ssoProviders, answer: { providers: [] } }]);
    renderScreen(<LoginPage />, `/login?sso_error=${ErrorCode.ssoNoAccount}`);
    expect((await screen.findByRole("alert")).textContent).toBe(i18n.t(`errors.${ErrorCode.ssoNoAccount}`));
    expect(screen.queryByRole("group", { name: i18n.t("login.sso.group") })).toBeNull();
  });

  it("shows a refused login, empties the password and keeps the username", async () => {
    stubApi([
      { route: api.ssoProviders, answer: { providers: [] } },
      {
        route: api.login,
        answer: () => {
          throw new ApiFailure(ErrorCode.invalidCredentials);
        },
      },
    ]);
    openLogin();
    fireEvent.click(submit());
    expect(await screen.findByText(i18n.t(`errors.${ErrorCode.invalidCredentials}`))).toBeTruthy();
    await waitFor(() => expect(fieldLabelled("login.password").value).toBe(""));
    expect(fieldLabelled("login.username").value).toBe(" emma ");
    expect(submit().hasAttribute("disabled")).toBe(true);
    expect(sessionStore.get().session).toBeFalsy();
  });

  it("asks for the username before 'forgot password', at the field", async () => {
    stubApi([{ route: api.ssoProviders, answer: { providers: [] } }]);
    renderScreen(<LoginPage />, "/login");
    fireEvent.click(screen.getByRole("button", { name: i18n.t("login.forgot") }));
    expect(await screen.findByText(i18n.t("login.provideUsername"))).toBeTruthy();
    expect(fieldLabelled("login.username").getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(fieldLabelled("login.username"), { target: { value: "emma" } });
    expect(screen.queryByText(i18n.t("login.provideUsername"))).toBeNull();
  });
});
