// First: what the first screen needs from the network is asked for before the rest is set up.
import { startSession, texts } from "./app/first-requests";
import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "@mantine/dropzone/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { whenSettled } from "./app/settled";
import { startFirstScreen } from "./app/start";
import { consumeUrlToken } from "./session/url-token";

async function start() {
  // Logged in (and not arriving with a token link): the start page's data comes beside its code.
  if (startSession) startFirstScreen(startSession.user, window.location.pathname);
  // The first render waits for the language's texts: no untranslated key flashes up.
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
