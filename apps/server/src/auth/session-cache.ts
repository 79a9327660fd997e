import { ChangeCache, type ChangeFeed } from "../db/changes";
import { changeFeedOf, type Db } from "../db/client";
import { loadSessionUser, type SessionUser } from "../users/service";

/*
 * Every authenticated request needs its user as the database holds it now (a deleted user, a
 * changed password or role ends or alters the session at once). On PGlite (one process) the
 * users are kept in memory and dropped when the database says one changed: the triggers of
 * migration 0015 notify before the writing statement returns.
 * On PostgreSQL another server's change arrives a moment after its commit; a request that reaches
 * this server in that moment must not pass with the old password, so there every request reads
 * the user (one indexed query) until the servers confirm each invalidation to the writer.
 */

/** Sessions kept per database; the oldest leave first beyond this many users. */
const MAX_SESSIONS = 50_000;

const caches = new WeakMap<ChangeFeed, ChangeCache<number, SessionUser>>();

function userOf(payload: string): number | undefined {
  const id = Number(payload);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The session's user: from memory where every change is heard before it is answered, else from the database. */
export function sessionUser(db: Db, id: number): Promise<SessionUser | undefined> {
  const feed = changeFeedOf(db);
  if (!feed || feed.shared) return loadSessionUser(db, id);
  let cache = caches.get(feed);
  if (!cache) {
    cache = new ChangeCache(feed, "cc_session", userOf, MAX_SESSIONS);
    caches.set(feed, cache);
  }
  return cache.get(id, () => loadSessionUser(db, id));
}
