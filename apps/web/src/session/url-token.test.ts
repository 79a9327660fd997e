// @vitest-environment jsdom
import { api, type User } from "@carecampus/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubApi } from "../test/api";
import { keepSsoNonce, takeSsoProvider } from "./sso";
import { sessionStore } from "./store";
import { consumeUrlToken } from "./url-token";

const USER = {
  id: 7,
  name: "Lena",
  surname: "Sommer",
  login: "lena@example.org",
  facility: { id: 1, name: "Haus" },
  roles: ["employee"],
  email: "lena@example.org",
  salutation: "-",
  activities: [],
  qualifications: [],
  avatar: "female",
  language: "de",
  theme: "carely",
} as unknown as User;

const base64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const TOKEN = `${base64url('{"alg":"HS256"}')}.${base64url(JSON.stringify({ sub: "7", exp: 4_000_000_000 }))}.sig`;

beforeEach(() => {
  localStorage.clear();
  sessionStore.clear();
  stubApi([{ route: api.userGet, params: { id: 7 }, answer: USER }]);
});
afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, "", "/");
});

describe("a single sign-on login's return (issue 32)", () => {
  it("takes the session from the fragment when it comes back with this browser's own value, and removes it", async () => {
    keepSsoNonce("nonce-of-this-browser-123");
    window.history.replaceState(null, "", `/profile#sso_token=${TOKEN}&sso=demo&sso_nonce=nonce-of-this-browser-123`);
    expect(await consumeUrlToken()).toBe(false);
    expect(window.location.hash).toBe("");
    expect(window.location.pathname).toBe("/profile");
    expect(sessionStore.get().session?.user.id).toBe(7);
    // Logging out later also ends the provider's session.
    expect(takeSsoProvider()).toBe("demo");
  });

  it("drops a session someone else's link carries (another value, or none kept here)", async () => {
    keepSsoNonce("nonce-of-this-browser-123");
    window.history.replaceState(null, "", `/#sso_token=${TOKEN}&sso=demo&sso_nonce=attackers-own-nonce-4567`);
    await consumeUrlToken();
    expect(sessionStore.get().session).toBeFalsy();
    expect(window.location.hash).toBe("");
    // The kept value is used once: the same link again finds none.
    window.history.replaceState(null, "", `/#sso_token=${TOKEN}&sso=demo&sso_nonce=nonce-of-this-browser-123`);
    await consumeUrlToken();
    expect(sessionStore.get().session).toBeFalsy();
  });
});
