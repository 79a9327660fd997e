import { ROLES, type Role } from "@carecampus/contract";
import { and, eq, type Placeholder, sql } from "drizzle-orm";
import { currentMember } from "../access/scope";
import { ChangeCache, type ChangeFeed } from "../db/changes";
import { changeFeedOf, type Db, isTransaction, type Tx } from "../db/client";
import { users } from "../db/schema";

/*
 * Every authenticated request needs its user as the database holds it now (a deleted user, a
 * changed password or role ends or alters the session at once). On PGlite (one process) the
 * users are kept in memory and dropped when the database says one changed: the triggers of
 * migration 0015 notify before the writing statement returns.
 * On PostgreSQL another server's change arrives a moment after its commit; a request that reaches
 * this server in that moment must not pass with the old password, so there every request reads
 * the user (one indexed query) until the servers confirm each invalidation to the writer.
 */

/** The user of a session: who they are, their roles and facility, and their token version. */
export interface SessionUser {
  id: number;
  login: string;
  name: string;
  surname: string;
  facilityId: number | null;
  tokenVersion: number;
  roles: Role[];
}

function sessionUserQuery(db: Db | Tx, id: number | Placeholder) {
  return (
    db
      .select({
        id: users.id,
        login: users.login,
        name: users.name,
        surname: users.surname,
        facilityId: users.facilityId,
        tokenVersion: users.tokenVersion,
        roles: sql<
          Role[] | null
        >`(select array_agg(ur."role" order by ur."role") from "user_roles" ur where ur."user_id" = "users"."id")`,
      })
      .from(users)
      // A former employee has no session (issue 28): archiving also raises token_version.
      .where(and(eq(users.id, id), currentMember))
      .limit(1)
  );
}

/**
 * The statement of every authenticated request on PostgreSQL, prepared once per database: built
 * once in this process, and under a name PostgreSQL parses and plans once per connection (the
 * servers connect directly or through a pooler in session mode, README 'Running several servers').
 */
const prepared = new WeakMap<Db, ReturnType<typeof prepareSessionUser>>();

function prepareSessionUser(db: Db) {
  return sessionUserQuery(db, sql.placeholder("id")).prepare("cc_session_user");
}

/**
 * One round trip: the user with their roles, for every authenticated request. Read here, not
 * through users/: the guard sits under every feature's routes, users' included.
 */
export async function loadSessionUser(db: Db | Tx, id: number): Promise<SessionUser | undefined> {
  let rows: Awaited<ReturnType<typeof sessionUserQuery>>;
  if (isTransaction(db)) rows = await sessionUserQuery(db, id);
  else {
    let query = prepared.get(db);
    if (!query) {
      query = prepareSessionUser(db);
      prepared.set(db, query);
    }
    rows = await query.execute({ id });
  }
  const row = rows[0];
  return row ? { ...row, roles: ROLES.filter((role) => row.roles?.includes(role)) } : undefined;
}

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
