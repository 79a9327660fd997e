import { pickLanguage, startI18n } from "../i18n";
import { preferredLanguage, type Session, sessionStore } from "../session/store";
import { homeScreen, shellScreen } from "./screens";

/*
 * The first module main.tsx imports, so the first the browser runs once the app's code has
 * arrived — before React, the router and Mantine are set up, which takes about a third of a
 * second on a slow phone. What the first screen needs from the network is asked for here, so it
 * travels while that set-up runs rather than after it: the language's texts, and with a session
 * the rest of them and the shell's and the start page's code (app/start.ts then asks for the
 * start page's data). A token link (spec §2) is not a session yet.
 */
const state = sessionStore.get();

/** The login's texts in the user's language: the first render waits for them (main.tsx). */
export const texts = startI18n(pickLanguage(preferredLanguage(state)));

/** The session the app starts with, if any. */
export const startSession: Session | null =
  state.session && !new URLSearchParams(window.location.search).has("token") ? state.session : null;

if (startSession) {
  void shellScreen.preload();
  if (window.location.pathname === "/") void homeScreen.preload();
}
