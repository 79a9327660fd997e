import {
  isTokenUsable,
  type Language,
  type Preferences,
  type Theme,
  type TokenClaims,
  type User,
} from "@carecampus/contract";
import { useSyncExternalStore } from "react";
import { forgetCopyOfOthers } from "../offline/copy";

const KEYS = { token: "carecampus.token", user: "carecampus.user", preferences: "carecampus.preferences" } as const;

/** What the device keeps of the last user's preferences for the login screen. */
export type KeptPreferences = Pick<Preferences, "avatar" | "language" | "theme">;

export interface Session {
  token: string;
  claims: TokenClaims;
  user: User;
}

export interface State {
  session: Session | null;
  /** Set when the inactivity limit ended the session: the lockout dialog shows. */
  lockedOut: boolean;
  /** Kept after logout so the login screen keeps the user's language and theme. */
  preferences: KeptPreferences | null;
}

export function decodeClaims(token: string): TokenClaims | null {
  try {
    const part = token.split(".")[1];
    if (!part) return null;
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as TokenClaims;
  } catch {
    return null;
  }
}

function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/** A stored token is accepted at start-up only if its expiry lies in the future (spec §4). */
function restore(): State {
  const token = localStorage.getItem(KEYS.token);
  const user = readJson<User>(KEYS.user);
  const preferences = readJson<KeptPreferences>(KEYS.preferences);
  const claims = token ? decodeClaims(token) : null;
  if (token && user && claims && isTokenUsable(claims.exp, Date.now())) {
    return { session: { token, claims, user }, lockedOut: false, preferences };
  }
  localStorage.removeItem(KEYS.token);
  localStorage.removeItem(KEYS.user);
  return { session: null, lockedOut: false, preferences };
}

/** The theme the user has: the logged-in user's, else the one kept from the last session. */
export function preferredTheme(state: State): Theme | undefined {
  return state.session?.user.theme ?? state.preferences?.theme;
}

/** The language the user chose: the logged-in user's, else the one kept from the last session. */
export function preferredLanguage(state: State): Language | undefined {
  return state.session?.user.language ?? state.preferences?.language;
}

let state: State = restore();
const listeners = new Set<() => void>();

function set(next: Partial<State>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

/**
 * Another tab of this browser changed the session (a login, a logout, a renewed token, a new
 * theme or language): this tab follows, as it would after a reload. The lockout stays this tab's.
 */
if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.storageArea !== localStorage) return;
    if (event.key !== null && !Object.values(KEYS).includes(event.key as (typeof KEYS)[keyof typeof KEYS])) return;
    set({ ...restore(), lockedOut: state.lockedOut });
  });
}

export const sessionStore = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  login(token: string, user: User): void {
    const claims = decodeClaims(token);
    if (!claims) return;
    const preferences = { avatar: user.avatar, language: user.language, theme: user.theme };
    localStorage.setItem(KEYS.token, token);
    localStorage.setItem(KEYS.user, JSON.stringify(user));
    localStorage.setItem(KEYS.preferences, JSON.stringify(preferences));
    set({ session: { token, claims, user }, lockedOut: false, preferences });
    // Another person's certificates kept on this device for offline use go (offline/copy.ts).
    void forgetCopyOfOthers(user.id);
  },
  /**
   * A renewed token of the session's own user. One that answers for someone else (a refresh sent
   * before another tab logged another user in) is dropped: it must not become the new user's.
   */
  setToken(token: string): void {
    const claims = decodeClaims(token);
    if (!claims || !state.session || claims.sub !== state.session.claims.sub) return;
    localStorage.setItem(KEYS.token, token);
    set({ session: { ...state.session, token, claims } });
  },
  /** The session's user as saved (profile, account); a save of another user (see setToken) is dropped. */
  setUser(user: User): void {
    if (!state.session || user.id !== state.session.user.id) return;
    const preferences = { avatar: user.avatar, language: user.language, theme: user.theme };
    localStorage.setItem(KEYS.user, JSON.stringify(user));
    localStorage.setItem(KEYS.preferences, JSON.stringify(preferences));
    set({ session: { ...state.session, user }, preferences });
  },
  /** Logout, 1010 or 401: local storage is cleared (spec §4). */
  clear(options: { lockedOut?: boolean } = {}): void {
    localStorage.removeItem(KEYS.token);
    localStorage.removeItem(KEYS.user);
    set({ session: null, lockedOut: options.lockedOut ?? false });
  },
  dismissLockout(): void {
    set({ lockedOut: false });
  },
};

export function useSessionState(): State {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}

export function useSession(): Session | null {
  return useSessionState().session;
}

/** For screens inside the authenticated shell, where a session always exists. */
export function useRequiredSession(): Session {
  const session = useSession();
  if (!session) throw new Error("useRequiredSession outside an authenticated route");
  return session;
}
