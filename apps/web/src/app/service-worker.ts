import { Workbox } from "workbox-window";
import { setUpdateWaiting } from "./update-state";

/** How often an open app asks whether a new version is out (and whenever it comes to the front). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker (src/sw/sw.ts); main.tsx calls it once the first screen is complete
 * (app/settled.ts), so that its precaching never competes with it. A new version waits until the user agrees in the update
 * prompt; then it takes over and the page reloads into it.
 */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const wb = new Workbox("/sw.js", { scope: "/" });
  wb.addEventListener("waiting", () => setUpdateWaiting(() => wb.messageSkipWaiting()));
  wb.addEventListener("controlling", (event) => {
    if (event.isUpdate) window.location.reload();
  });
  void wb.register({ immediate: true }).catch(() => {
    // No worker (a private window, storage refused): the app works on, online only.
  });
  window.setInterval(() => void wb.update().catch(() => undefined), UPDATE_CHECK_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void wb.update().catch(() => undefined);
  });
}
