import type { Role, User } from "@carecampus/contract";
import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, configure, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { vi } from "vitest";
import i18n, { startI18n, textsReady } from "../i18n";
import { sessionStore } from "../session/store";

/*
 * Component tests (jsdom): the app's providers around one screen, its English texts, and a
 * session of a chosen role. Mantine's test environment renders without transitions and portals,
 * so a menu's items are in the document as soon as it opens.
 */

/*
 * findBy… and waitFor give up after 1 s by default. These tests run beside the API and browser
 * tests on two cores, where a save's round of renders (a held request released, a navigation, a
 * toast) took longer than that now and then and failed a test whose screen was right. They wait
 * up to 10 s; a test that passes still passes as soon as its element shows.
 */
configure({ asyncUtilTimeout: 10_000 });

/** What jsdom lacks and Mantine asks for. */
function polyfill(): void {
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  // Mantine's autosizing Textarea measures again once web fonts have loaded.
  if (!("fonts" in document)) {
    Object.defineProperty(document, "fonts", {
      value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
    });
  }
}

export async function setUpComponentTests(): Promise<void> {
  polyfill();
  await startI18n("en");
  // The screens' texts, as the shell waits for them (the login's part alone is what startI18n loads).
  await textsReady();
}

/** A token the session store can read (its signature is never checked in the browser). */
function fakeToken(user: User): string {
  const part = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, "");
  const claims = {
    exp: Math.floor(Date.now() / 1000) + 3600,
    sub: String(user.id),
    auth_time: Math.floor(Date.now() / 1000),
    name: user.name,
    surname: user.surname,
    roles: user.roles,
    login: user.login,
    facility: user.facility?.id ?? null,
    lng: user.language,
  };
  return `${part({ alg: "HS256" })}.${part(claims)}.signature`;
}

/** Logs a user of these roles in (facility 1 unless their roles have none). */
export function signInAs(roles: Role[], id = 1): User {
  const facilityless = roles.includes("superchris") || roles.includes("contentmanager");
  const user: User = {
    id,
    name: "Test",
    surname: roles.join("-"),
    login: `test.${roles.join("-")}`,
    facility: facilityless ? null : { id: 1, name: "Haus Sonnenhof" },
    roles,
    email: null,
    salutation: "-",
    activities: [],
    qualifications: [],
    show_help_redirect: false,
    avatar: "owl",
    language: "en",
    theme: "carely",
    content_language: null,
    passive: false,
    expires_at: null,
  };
  sessionStore.login(fakeToken(user), user);
  return user;
}

export function renderScreen(ui: ReactNode, path = "/") {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** What a test leaves behind: the screen, the session, a stubbed API (test/api.ts). */
export function cleanUpScreen(): void {
  cleanup();
  sessionStore.clear();
  vi.unstubAllGlobals();
}

/** The form field labelled with the words of this text key (a required field's label adds a '*'). */
export function fieldLabelled(key: string): HTMLInputElement {
  const words = i18n.t(key).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return screen.getByLabelText(new RegExp(`^${words}\\s*\\*?$`)) as HTMLInputElement;
}
