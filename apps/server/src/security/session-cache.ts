import { ErrorCode, ROLES, type Role } from "@carecampus/contract";
import { and, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import { currentMember } from "../access/scope";
import { ChangeCache, type ChangeFeed } from "../db/changes";
import { changeFeedOf, type Db, isTransaction, type Tx } from "../db/client";
import { users } from "../db/schema";
import { AppError } from "../errors";

/*
 * Every authenticated request needs its user as the database holds it now (a deleted user, a
 * changed password or role ends or alters the session at once). On PGlite (one process) the
 * users are kept in memory and dropped when the database says one changed: the triggers of
 * migration 0015 notify before the writing statement returns.
 * On PostgreSQL another server's change arrives a moment after its commit; a request that reaches
 * this server in that moment must not pass with the old password, so there every request reads
 * the user (one indexed query) — except where the route's own first statement reads the user
 * anyway (the learning routes, learning/progress.ts): there the guard takes the user from memory
 * and that statement confirms it (SessionCheck below), a round trip fewer on the learner's path.
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

/** The user's roles, ordered (null without any), for a statement with "users" in its FROM. */
const ROLES_OF_USER = sql<
  Role[] | null
>`(select array_agg(ur."role" order by ur."role") from "user_roles" ur where ur."user_id" = "users"."id")`;

/** The session's user as the app keeps it: only the roles the app knows, in its order. */
function asSessionUser(row: Omit<SessionUser, "roles"> & { roles: readonly string[] | null }): SessionUser {
  return { ...row, roles: ROLES.filter((role) => row.roles?.includes(role)) };
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
        roles: ROLES_OF_USER,
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
  return row ? asSessionUser(row) : undefined;
}

/** Sessions kept per database; the oldest leave first beyond this many users. */
const MAX_SESSIONS = 50_000;

const caches = new WeakMap<ChangeFeed, ChangeCache<number, SessionUser>>();

function userOf(payload: string): number | undefined {
  const id = Number(payload);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The sessions kept in memory for a database's change feed, dropped as the feed says users change. */
function cacheOf(feed: ChangeFeed): ChangeCache<number, SessionUser> {
  let cache = caches.get(feed);
  if (!cache) {
    cache = new ChangeCache(feed, "cc_session", userOf, MAX_SESSIONS);
    caches.set(feed, cache);
  }
  return cache;
}

/** The session's user: from memory where every change is heard before it is answered, else from the database. */
export function sessionUser(db: Db, id: number): Promise<SessionUser | undefined> {
  const feed = changeFeedOf(db);
  if (!feed || feed.shared) return loadSessionUser(db, id);
  return cacheOf(feed).get(id, () => loadSessionUser(db, id));
}

/*
 * A session confirmed by the route's statement. On PostgreSQL a guard of a route that reads the
 * user in its own first statement (authenticate's `confirmedByStatement`) takes the session's user
 * from memory, kept as on PGlite but heard a moment after another server's commit; the route's
 * statement then reads the user's session columns (SESSION_COLUMNS, over "users" in its FROM) and
 * confirmSession compares them with what the guard admitted. Whatever differs ends the request
 * before it has changed anything, and the user is read again: what was admitted on old data never
 * takes effect. A new password (token version), an archived or deleted user end the session
 * (1010); a role, the facility or a name that changed leave it valid (StaleSession): the guard
 * admits the caller again as the database holds them now and the route runs once more
 * (guards.ts `confirming`), so a learner whose role changed a moment ago on another server gets
 * the answer a fresh read gives, not a logout. On PGlite memory is exact and nothing is left to
 * confirm.
 */

/** The session's user from memory, admitted by the guard and not yet confirmed by the database. */
export interface SessionCheck {
  readonly user: SessionUser;
  confirmed: boolean;
  /** Drops the user from memory: what the statement read differs. */
  readonly forget: () => void;
}

/**
 * The route's statement found the session's user changed in a way that leaves the session valid
 * (a role, the facility, a name): the guard admits the caller again from the database and the
 * route runs once more (guards.ts `confirming`). A route that does not catch it answers as an
 * expired session, as for any other difference.
 */
export class StaleSession extends AppError {
  constructor() {
    super(ErrorCode.sessionExpired, "Session expired");
  }
}

/** A user's session columns as one JSON array, for a statement that has "users" in its FROM. */
export const SESSION_COLUMNS: SQL = sql`json_build_array("users"."login", "users"."name", "users"."surname",
  "users"."facility_id", "users"."token_version", ${ROLES_OF_USER}, ${currentMember})`;

/** SESSION_COLUMNS as a statement returns them. */
export type SessionColumns = [
  login: string,
  name: string,
  surname: string,
  facilityId: number | null,
  tokenVersion: number,
  roles: Role[] | null,
  member: boolean,
];

/**
 * The session's user for a guard whose route confirms it (SessionCheck): from memory on either
 * database, with the check the route must pass on PostgreSQL (null where memory is exact).
 */
export async function sessionUserToConfirm(
  db: Db,
  id: number,
  /** The token's version: a user kept with another one is read from the database at once. */
  tokenVersion: number,
): Promise<{ user: SessionUser | undefined; check: SessionCheck | null }> {
  const feed = changeFeedOf(db);
  if (!feed?.shared) return { user: await sessionUser(db, id), check: null };
  const kept = cacheOf(feed);
  const user = await kept.get(id, () => loadSessionUser(db, id));
  if (!user || user.tokenVersion !== tokenVersion) {
    // A new login's token may come before this server heard of the change that made it.
    kept.forget(id);
    return { user: await loadSessionUser(db, id), check: null };
  }
  return { user, check: { user, confirmed: false, forget: () => kept.forget(id) } };
}

/**
 * Compares the session columns a route's statement read (undefined: no such user) with the user
 * the guard admitted: equal, the check is confirmed; else the user is read from the database next
 * time, and the request ends — as an expired session (1010, as the guard answers) where the user
 * is gone or the token's version is no longer theirs, else as a StaleSession to be admitted again.
 */
export function confirmSession(check: SessionCheck, row: SessionColumns | undefined): void {
  const { user } = check;
  const now =
    row?.[6] === true
      ? asSessionUser({
          id: user.id,
          login: row[0],
          name: row[1],
          surname: row[2],
          facilityId: row[3],
          tokenVersion: row[4],
          roles: row[5],
        })
      : undefined;
  const same =
    now !== undefined &&
    (Object.keys(user) as (keyof SessionUser)[]).every((key) =>
      key === "roles" ? now.roles.join() === user.roles.join() : now[key] === user[key],
    );
  if (same) {
    check.confirmed = true;
    return;
  }
  check.forget();
  if (now === undefined || now.tokenVersion !== user.tokenVersion) {
    throw new AppError(ErrorCode.sessionExpired, "Session expired");
  }
  throw new StaleSession();
}
