import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "@mantine/dropzone/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { whenSettled } from "./app/settled";
import { startFirstScreen } from "./app/start";
import { pickLanguage, startI18n } from "./i18n";
import { preferredLanguage, sessionStore } from "./session/store";
import { consumeUrlToken } from "./session/url-token";

async function start() {
  const state = sessionStore.get();
  // The first render waits for the language's texts: no untranslated key flashes up.
  const texts = startI18n(pickLanguage(preferredLanguage(state)));
  // Logged in (and not arriving with a token link): the first screen's code and data come beside them.
  if (state.session && !new URLSearchParams(window.location.search).has("token")) {
    startFirstScreen(state.session.user, window.location.pathname);
  }
  await texts;
  if (await consumeUrlToken()) return;
  const root = document.getElementById("root");
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  // The service worker (offline start, kept certificates, the update prompt), in the built app
  // only, once the first screen is complete: its download of the app does not slow that screen.
  if (import.meta.env.PROD) {
    void whenSettled()
      .then(() => import("./app/service-worker"))
      .then((m) => m.registerServiceWorker());
  }
}

void start();
