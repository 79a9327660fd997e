import { api, can, hasTrainings, type Role } from "@carecampus/contract";
import { call } from "../api/client";
import { EARLY, startEarly } from "../api/early";
import { textsReady } from "../i18n";

/**
 * At start-up with a session: everything the first screen needs is asked for at once — the shell's
 * and the start page's code, the rest of the language's texts and the start page's data — rather
 * than each after the one before (on a slow phone every round trip costs 150 ms and more).
 */
export function startFirstScreen(user: { id: number; roles: Role[] }, path: string): void {
  void import("./Shell");
  void textsReady();
  if (path !== "/") return;
  void import("../features/home/HomePage");
  // Silent: a failure here is asked again by the query, which says what went wrong.
  if (hasTrainings(user.roles)) {
    startEarly(EARLY.topics, () => call(api.topicList, { silent: true }));
    startEarly(EARLY.progress(user.id), () => call(api.userProgress, { params: { id: user.id }, silent: true }));
    startEarly(EARLY.myEvents, () => call(api.calendarMine, { silent: true }));
  }
  if (can(user.roles, "home.staff")) startEarly(EARLY.staffHome, () => call(api.staffHome, { silent: true }));
}
