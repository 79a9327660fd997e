import { ChangeCache, type ChangeFeed } from "../db/changes";
import { changeFeedOf, type Db } from "../db/client";
import { loadSessionUser, type SessionUser } from "../users/service";

/*
 * Every authenticated request needs its user as the database holds it now (a deleted user, a
 * changed password or role ends or alters the session at once). The users are kept in memory
 * and dropped when the database says one changed: the triggers of migration 0014 notify every
 * server at commit, whoever wrote (another server, the password-reset CLI). While this process
 * does not hear them, every request reads the database as before.
 */

/** Sessions kept per database; the oldest leave first beyond this many users. */
const MAX_SESSIONS = 50_000;

const caches = new WeakMap<ChangeFeed, ChangeCache<number, SessionUser>>();

function userOf(payload: string): number | undefined {
  const id = Number(payload);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The session's user: from memory while every change is heard, else from the database. */
export function sessionUser(db: Db, id: number): Promise<SessionUser | undefined> {
  const feed = changeFeedOf(db);
  if (!feed) return loadSessionUser(db, id);
  let cache = caches.get(feed);
  if (!cache) {
    cache = new ChangeCache(feed, "cc_session", userOf, MAX_SESSIONS);
    caches.set(feed, cache);
  }
  return cache.get(id, () => loadSessionUser(db, id));
}
