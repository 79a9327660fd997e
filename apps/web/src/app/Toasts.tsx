import type { NotificationData } from "@mantine/notifications";
import { lazy, Suspense, useSyncExternalStore } from "react";

/*
 * The toasts (Mantine's notifications, with their transitions) load with the first toast: the
 * login shows one only on a failure or after 'forgot password', so it does not load them up
 * front (issue 13). Nothing else imports @mantine/notifications.
 */
const load = () => import("@mantine/notifications");

let wanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Shows a toast, loading the toasts first if this is the first one. */
export function showToast(data: NotificationData): void {
  void load().then(({ notifications }) => {
    notifications.show(data);
    if (wanted) return;
    wanted = true;
    for (const listener of listeners) listener();
  });
}

const Notifications = lazy(() => load().then((m) => ({ default: m.Notifications })));

/** Where the toasts show, from the first one on (App.tsx). */
export function Toasts() {
  const shown = useSyncExternalStore(subscribe, () => wanted);
  return shown ? (
    <Suspense fallback={null}>
      <Notifications position="top-right" limit={4} />
    </Suspense>
  ) : null;
}
