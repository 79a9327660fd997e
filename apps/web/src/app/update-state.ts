import { useSyncExternalStore } from "react";

/*
 * Whether a new version of the app is installed and waiting (the service worker's, app/
 * service-worker.ts), and how to switch to it once the user agreed (app/UpdatePrompt.tsx). Kept
 * apart from the registration so that the prompt does not load Workbox.
 */

let waiting = false;
let apply: (() => void) | null = null;
const listeners = new Set<() => void>();

export function setUpdateWaiting(switchOver: () => void): void {
  waiting = true;
  apply = switchOver;
  for (const listener of listeners) listener();
}

/** The user agreed: the waiting version takes over and the page reloads into it. */
export function applyUpdate(): void {
  apply?.();
}

export function useUpdateWaiting(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => waiting,
    () => false,
  );
}
