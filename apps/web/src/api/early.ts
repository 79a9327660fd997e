/*
 * Requests started before the app's code is there (issue 30: a fast start on a slow phone): at
 * start-up, with a session, the first screen's data is asked for beside the language's texts and
 * the screen's code, not after them. A query then takes its request from here the first time
 * (later it asks the server itself); a failed one is asked again as the query would have.
 */
import { sessionStore } from "../session/store";

const pending = new Map<string, { user: number | undefined; answer: Promise<unknown> }>();

/** Whose session the requests are made in now. */
const sessionUser = () => sessionStore.get().session?.user.id;

/** What may be asked for early, by the one name the start-up and the query both use. */
export const EARLY = {
  topics: "topics",
  progress: (userId: number) => `progress:${userId}`,
  myEvents: "calendar:mine",
  staffHome: "home:staff",
} as const;

/** Starts `request` now, kept under `key` for the query that will want it. */
export function startEarly(key: string, request: () => Promise<unknown>): void {
  if (!pending.has(key)) pending.set(key, { user: sessionUser(), answer: request() });
}

/**
 * The early request under `key` (once), else `request` itself. One started for another user
 * (someone else logged in since, in another tab) is not theirs: asked anew.
 */
export function early<T>(key: string, request: () => Promise<T>): Promise<T> {
  const started = pending.get(key);
  pending.delete(key);
  if (!started || started.user !== sessionUser()) return request();
  return (started.answer as Promise<T>).catch(() => request());
}
