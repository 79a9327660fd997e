import { api, can, hasTrainings, type Role } from "@carecampus/contract";
import { call } from "../api/client";
import { EARLY, startEarly } from "../api/early";

/**
 * At start-up with a session, on the start page: its data is asked for at once, beside its code
 * (app/first-requests.ts asked for that), rather than after the code has arrived and run (on a
 * slow phone every round trip costs 150 ms and more).
 */
export function startFirstScreen(user: { id: number; roles: Role[] }, path: string): void {
  if (path !== "/") return;
  // Silent: a failure here is asked again by the query, which says what went wrong.
  if (hasTrainings(user.roles)) {
    startEarly(EARLY.topics, () => call(api.topicList, { silent: true }));
    startEarly(EARLY.progress(user.id), () => call(api.userProgress, { params: { id: user.id }, silent: true }));
    startEarly(EARLY.myEvents, () => call(api.calendarMine, { silent: true }));
  }
  if (can(user.roles, "home.staff")) startEarly(EARLY.staffHome, () => call(api.staffHome, { silent: true }));
}
