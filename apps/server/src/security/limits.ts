import { loginKey } from "@carecampus/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import type { LimitDeps } from "../deps";
import { TooManyAttempts } from "../errors";

/*
 * Login limits and request limits, counted in the database (table rate_limits) so that every
 * server process on it counts together (ARCHITECTURE decision 18). Each counter is one row,
 * changed by one atomic upsert: two processes (or two requests) never lose a count.
 *
 * Password checks (login, and the old password of a password change) count FAILURES, never
 * successes, so thirty colleagues behind one care home's NAT all get in:
 *  - per account: after LOGIN_MAX_FAILURES wrong passwords within a day the account is locked
 *    for LOGIN_LOCK_MINUTES; each further wrong password after a lock locks it again, twice as
 *    long, up to four times as long. The right password gets in once the lock has ended, and
 *    ends the streak. A login that names nobody is counted and locked alike, so a lock tells
 *    nothing about which logins exist. About 25 guesses a day remain, instead of 14 000.
 *  - per IP: LOGIN_IP_MAX_FAILURES wrong passwords within LOGIN_LOCK_MINUTES, then that IP
 *    waits for the rest of the window.
 * An attempt is counted BEFORE its password is verified and given back when it succeeds, so
 * a burst of parallel guesses cannot slip past the limit while the hashes are computed.
 *
 * API errors (countRequestError): 404s under /api and refused tokens, per IP, API_IP_MAX_ERRORS
 * within LOGIN_LOCK_MINUTES; then that IP's API requests wait for the rest of the window, so
 * nobody scans the API for routes, ids or tokens at full speed (security/scan-limit.ts).
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** A lock doubles at most twice: 15, 30, then 60 minutes with the default. */
const MAX_LOCK_DOUBLINGS = 2;

type Policy =
  /** A fixed window: `max` hits, then blocked until the window ends. */
  | { kind: "window"; max: number; windowMs: number }
  /** A streak of failures within a day: from the `max`-th on, each one locks, growing. */
  | { kind: "lock"; max: number; lockMinutes: number };

const int = (n: number) => sql.raw(String(Math.trunc(n)));
const instant = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Counts one hit on `key` unless the key is blocked at `now`: true when counted (the caller
 * may go on), false when blocked.
 */
async function hit(db: Db, key: string, policy: Policy, now: Date): Promise<boolean> {
  return (await countHit(db, key, policy, now)) !== null;
}

/** `hit`, with the block this hit began (null: none yet); null when the key was blocked already. */
async function countHit(
  db: Db,
  key: string,
  policy: Policy,
  now: Date,
): Promise<{ blockedUntil: string | Date | null } | null> {
  const windowMs = policy.kind === "lock" ? DAY_MS : policy.windowMs;
  const t = instant(now);
  const expired = sql`r.window_start <= ${instant(new Date(now.getTime() - windowMs))}`;
  const hits = sql`(case when ${expired} then 1 else r.hits + 1 end)`;
  const start = sql`(case when ${expired} then ${t} else r.window_start end)`;
  const blockedUntil = (h: SQL, from: SQL) =>
    policy.kind === "lock"
      ? sql`(case when ${h} >= ${int(policy.max)} then ${t} + make_interval(mins => (${int(policy.lockMinutes)} * power(2, least(${h} - ${int(policy.max)}, ${int(MAX_LOCK_DOUBLINGS)})))::int) end)`
      : sql`(case when ${h} >= ${int(policy.max)} then ${from} + make_interval(secs => ${int(windowMs / 1000)}) end)`;
  const result = await db.execute<{ blocked_until: string | Date | null }>(sql`
    insert into rate_limits as r (key, hits, window_start, blocked_until)
    values (${key}, 1, ${t}, ${blockedUntil(sql`1`, t)})
    on conflict (key) do update set hits = ${hits}, window_start = ${start}, blocked_until = ${blockedUntil(hits, start)}
    where r.blocked_until is null or r.blocked_until <= ${t}
    returning r.blocked_until`);
  const row = result.rows[0];
  return row ? { blockedUntil: row.blocked_until } : null;
}

/** Gives back a hit counted before a success (the IP's and a rename's counters count failures only). */
async function refund(db: Db, key: string, max: number): Promise<void> {
  await db.execute(sql`
    update rate_limits set hits = greatest(hits - 1, 0),
      blocked_until = case when hits - 1 < ${int(max)} then null else blocked_until end
    where key = ${key}`);
}

async function clear(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

/** The 429 for blocked keys, with the seconds until the last of their blocks ends. */
async function tooMany(deps: LimitDeps, keys: string[], message: string): Promise<TooManyAttempts> {
  const now = deps.now();
  const result = await deps.db.execute<{ until: string | Date | null }>(
    sql`select max(blocked_until) as until from rate_limits where key in (${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )})`,
  );
  const until = result.rows[0]?.until;
  const ms = until ? new Date(until).getTime() - now.getTime() : MINUTE_MS;
  return new TooManyAttempts(Math.max(1, Math.ceil(ms / 1000)), message);
}

/**
 * The counter key of a client address. An IPv6 client holds a whole /64 (one SLAAC network) and
 * could take a new address for every try, so IPv6 addresses count by their /64; an IPv4 address
 * written as IPv6 (::ffff:a.b.c.d) counts as itself.
 */
export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return `ip:${mapped[1]}`;
  if (!ip.includes(":")) return `ip:${ip}`;
  const [head = "", tail = ""] = ip.split("%")[0]?.toLowerCase().split("::") ?? [];
  const left = head === "" ? [] : head.split(":");
  const right = ip.includes("::") ? (tail === "" ? [] : tail.split(":")) : [];
  const groups = ip.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `ip:${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The password counter of an account: its id when the login names a user, else the login itself. */
export function passwordKey(userId: number | undefined, login: string): string {
  return userId === undefined ? `password:login:${loginKey(login)}` : `password:user:${userId}`;
}

/** The counter of a user's refused renames (a rename to a login in use tells that it exists). */
export const renameKey = (userId: number) => `rename:${userId}`;

export interface Attempt {
  /** The attempt succeeded: the account's streak ends (or its hit is given back), the IP's hit is given back. */
  succeeded(): Promise<void>;
}

const TOO_MANY_ATTEMPTS = "Too many failed attempts, please wait";

/**
 * Admits one guarded attempt (a password check, a rename) from `ip` on the counter `account`,
 * counting it as a failure until `succeeded()` is called; throws 429 with Retry-After while the
 * IP or the account is blocked. `onSuccess: "clear"` ends the account's streak (a right
 * password), "refund" only gives this attempt back (a rename: no free names to reset it).
 */
export async function beginAttempt(
  deps: LimitDeps,
  account: string,
  ip: string,
  onSuccess: "clear" | "refund" = "clear",
): Promise<Attempt> {
  const { db, limits } = deps;
  const now = deps.now();
  const ipPolicy: Policy = { kind: "window", max: limits.ipMaxFailures, windowMs: limits.lockMinutes * MINUTE_MS };
  const accountPolicy: Policy = { kind: "lock", max: limits.maxFailures, lockMinutes: limits.lockMinutes };
  const ip_ = ipKey(ip);
  if (!(await hit(db, ip_, ipPolicy, now))) throw await tooMany(deps, [ip_], TOO_MANY_ATTEMPTS);
  if (!(await hit(db, account, accountPolicy, now))) {
    // Refused before any password was checked: not a failure of this IP.
    await refund(db, ip_, limits.ipMaxFailures);
    throw await tooMany(deps, [account], TOO_MANY_ATTEMPTS);
  }
  return {
    async succeeded() {
      await refund(db, ip_, limits.ipMaxFailures);
      if (onSuccess === "clear") await clear(db, account);
      else await refund(db, account, limits.maxFailures);
    },
  };
}

/** Lifts an account's failed-password lock (a password set by the operator). */
export async function clearPasswordFailures(db: Db | Tx, userId: number): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${passwordKey(userId, "")}`);
}

/** Counts one call on `key`, at most `max` per `windowMs`; throws 429 with Retry-After beyond. */
export async function consume(deps: LimitDeps, key: string, max: number, windowMs: number): Promise<void> {
  if (!(await hit(deps.db, key, { kind: "window", max, windowMs }, deps.now()))) {
    throw await tooMany(deps, [key], "Too many requests, please wait");
  }
}

/** Forgot password: LOGIN_RATE_LIMIT calls a minute per IP and per login, whether it exists or not. */
export async function consumeForgotPassword(deps: LimitDeps, login: string, ip: string): Promise<void> {
  const max = deps.limits.forgotPerMinute;
  await consume(deps, `forgot:${ipKey(ip)}`, max, MINUTE_MS);
  await consume(deps, `forgot:login:${loginKey(login)}`, max, MINUTE_MS);
}

/**
 * Counts one API error answer to `ip` (a 404, a refused token: security/scan-limit.ts), at most
 * API_IP_MAX_ERRORS within LOGIN_LOCK_MINUTES. The end of the IP's block when this error
 * reached the limit or the IP was blocked already (by this or another server), else null.
 */
export async function countRequestError(deps: LimitDeps, ip: string): Promise<Date | null> {
  const { db, limits } = deps;
  const key = `errors:${ipKey(ip)}`;
  const policy: Policy = { kind: "window", max: limits.ipMaxErrors, windowMs: limits.lockMinutes * MINUTE_MS };
  const counted = await countHit(db, key, policy, deps.now());
  if (counted) return counted.blockedUntil === null ? null : new Date(counted.blockedUntil);
  const result = await db.execute<{ until: string | Date | null }>(
    sql`select blocked_until as until from rate_limits where key = ${key}`,
  );
  const until = result.rows[0]?.until;
  return until ? new Date(until) : null;
}

/**
 * A media upload (question media and wiki images alike): UPLOAD_RATE_PER_MINUTE a minute per
 * user, counted before a byte of the body is read, refused or not.
 */
export async function consumeUpload(deps: LimitDeps, userId: number): Promise<void> {
  await consume(deps, `upload:user:${userId}`, deps.limits.uploadsPerMinute, MINUTE_MS);
}

/**
 * A public certificate verification (the page /v/{code} and its JSON together):
 * VERIFY_RATE_PER_MINUTE a minute per IP, known code or not, so nobody walks the code space.
 */
export async function consumeVerification(deps: LimitDeps, ip: string): Promise<void> {
  await consume(deps, `verify:${ipKey(ip)}`, deps.limits.verifyPerMinute, MINUTE_MS);
}

/** Drops counters whose window and lock have long ended (the hourly rate-limit-cleanup job). */
export async function pruneRateLimits(db: Db, now: Date): Promise<{ pruned: number }> {
  const before = instant(new Date(now.getTime() - 2 * DAY_MS));
  const result = await db.execute<{ key: string }>(
    sql`delete from rate_limits where window_start < ${before} and (blocked_until is null or blocked_until < ${instant(now)}) returning key`,
  );
  return { pruned: result.rows.length };
}
