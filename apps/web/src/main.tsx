import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "@mantine/dropzone/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { pickLanguage, startI18n } from "./i18n";
import { preferredLanguage, sessionStore } from "./session/store";
import { consumeUrlToken } from "./session/url-token";

async function start() {
  // The first render waits for the language's texts: no untranslated key flashes up.
  await startI18n(pickLanguage(preferredLanguage(sessionStore.get())));
  if (await consumeUrlToken()) return;
  const root = document.getElementById("root");
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
