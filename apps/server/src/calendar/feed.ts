import crypto from "node:crypto";
import { ErrorCode, endpoints, endpointUrl } from "@carecampus/contract";
import { and, eq, gt, or, sql } from "drizzle-orm";
import { type Actor, decide, facilityScope, notFound } from "../access/policy";
import { findUserTarget } from "../access/scope";
import type { Db, Tx } from "../db/client";
import { calendarEvents, calendarFeeds, calendarInvitees } from "../db/schema";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { findEvent, selectEvents } from "./events";
import { icsFileName, renderIcs } from "./ics";
import { invitedTo } from "./service";

/** How far back a subscription reaches: last month's sessions stay visible in the phone. */
const FEED_PAST_DAYS = 30;
/** Bounds one answer, far beyond a year of anyone's trainings. */
const FEED_LIMIT = 2_000;
const DAY_MS = 86_400_000;

/** An iCalendar file and the name it is saved under. */
export interface IcsFile {
  ics: string;
  filename: string;
}

/**
 * GET /calendar/events/{id}/ics: for its invitees, and for staff who may see the event. Anyone
 * else (an employee not invited, staff of another facility) is told it does not exist.
 */
export async function eventIcs(deps: DbClock, actor: Actor, id: number): Promise<IcsFile> {
  const row = await findEvent(deps.db, id);
  if (!row) throw notFound("calendar.read");
  const [invited] = await deps.db
    .select({ userId: calendarInvitees.userId })
    .from(calendarInvitees)
    .where(and(eq(calendarInvitees.eventId, id), eq(calendarInvitees.userId, actor.id)));
  if (!invited && decide(actor, "calendar.read", { facilityId: row.facilityId }) !== "allow") {
    throw notFound("calendar.read");
  }
  return { ics: renderIcs([row], deps.zone), filename: icsFileName(id) };
}

const hashOf = (secret: string) => crypto.createHash("sha256").update(secret, "utf8").digest("hex");

/**
 * GET /calendar/feed. Only the secret's hash is stored, so an existing URL cannot be shown
 * again: the answer says whether one is active, and the URL only when it is made.
 */
export async function getFeed(db: Db, actor: Actor): Promise<{ url: null; active: boolean }> {
  const [row] = await db
    .select({ userId: calendarFeeds.userId })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, actor.id));
  return { url: null, active: row !== undefined };
}

/** POST /calendar/feed: a new secret (256 random bits, URL-safe) replaces the old one. */
export async function createFeed(deps: DbClock, actor: Actor): Promise<{ url: string; active: boolean }> {
  const secret = crypto.randomBytes(32).toString("base64url");
  const secretHash = hashOf(secret);
  await deps.db
    .insert(calendarFeeds)
    .values({ userId: actor.id, secretHash, createdAt: deps.now() })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { secretHash, createdAt: deps.now() } });
  return { url: endpointUrl(endpoints.calendarFeedIcs, { params: { secret: `${secret}.ics` } }), active: true };
}

/** DELETE /calendar/feed: the URL stops working at once. */
export async function revokeFeed(db: Db, actor: Actor): Promise<{ url: null; active: boolean }> {
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, actor.id));
  return { url: null, active: false };
}

/**
 * A password change or reset ends the person's feed address at once, in the change's
 * transaction: whoever had the account must not keep a working feed. The person makes a new
 * one when they want it.
 */
export async function revokeFeedsOfUser(tx: Db | Tx, userId: number): Promise<void> {
  await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
}

const UNKNOWN_FEED = () => new AppError(ErrorCode.notFound, "Calendar feed not found");

/**
 * GET /calendar/feed/{secret}.ics, without a session: the secret is the credential. The
 * owner's invitations, and the events they organise in the facilities they still plan for,
 * from 30 days ago on.
 */
export async function feedIcs(deps: DbClock, file: string): Promise<IcsFile> {
  const secret = file.replace(/\.ics$/, "");
  const wanted = hashOf(secret);
  const [feed] = await deps.db
    .select({ userId: calendarFeeds.userId, secretHash: calendarFeeds.secretHash })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.secretHash, wanted));
  // The lookup is by hash; comparing again in constant time costs nothing and leaves no doubt.
  if (!feed || !crypto.timingSafeEqual(Buffer.from(feed.secretHash), Buffer.from(wanted))) throw UNKNOWN_FEED();
  const owner = await findUserTarget(deps.db, feed.userId);
  if (!owner) throw UNKNOWN_FEED();
  // Organised events only while the owner still plans for their facility (a role or a move
  // ends that); invitations stay theirs.
  const scope = facilityScope(owner);
  const organised =
    decide(owner, "calendar.plan") !== "allow" || scope === null
      ? sql`false`
      : and(
          eq(calendarEvents.organiserId, owner.id),
          scope === "all" ? undefined : eq(calendarEvents.facilityId, scope),
        );
  const since = new Date(deps.now().getTime() - FEED_PAST_DAYS * DAY_MS);
  const rows = await selectEvents(
    deps.db,
    and(or(invitedTo(owner.id), organised), gt(calendarEvents.endsAt, since)),
    FEED_LIMIT,
  );
  return { ics: renderIcs(rows, deps.zone, { name: "CareCampus", feed: true }), filename: "carecampus.ics" };
}
