import { daysUntil, formatDate } from "@carecampus/contract";
import { and, desc, eq, exists, gte, inArray, lte, sql } from "drizzle-orm";
import { isAssigned } from "../assignments/service";
import type { Tx } from "../db/client";
import {
  certificateNoticeSummaries,
  certificateNotices,
  certificates,
  facilities,
  notifications,
  topics,
  trainings,
  userRoles,
  users,
} from "../db/schema";
import type { AppDeps } from "../deps";
import { type CustomMessage, insertNotifications, type NewNotification } from "./service";

/** Days before expiry at which a notice goes out (ARCHITECTURE decision 7), least urgent first. */
export const STAGES = [30, 7, 0] as const;
export type Stage = (typeof STAGES)[number];

/** A certificate that expired longer ago than this gets no notice any more (no spam from old data). */
export const EXPIRED_GRACE_DAYS = 7;

export const CERTIFICATE_KEY = "notifications.certificateExpires";
export const SUMMARY_KEY = "notifications.certificatesExpireSummary";

/** Keeps two servers sharing one PostgreSQL from running the job at the same time. */
const JOB_LOCK = 42005;
const DAY_MS = 86_400_000;

/**
 * The most urgent stage due `days` calendar days before expiry, or null when none is (more than
 * 30 days left, or expired more than a week ago).
 */
export function dueStage(days: number): Stage | null {
  if (days < -EXPIRED_GRACE_DAYS) return null;
  if (days <= 0) return 0;
  if (days <= 7) return 7;
  if (days <= 30) return 30;
  return null;
}

/** YYYY-MM-DD of the server-local calendar day. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export interface ExpiryJobResult {
  /** False when another server held the job's lock. */
  ran: boolean;
  /** Certificate notices sent to employees. */
  notices: number;
  /** Facility summaries created or extended. */
  summaries: number;
  /** E-mails handed to the SMTP server. */
  mails: number;
}

interface Due {
  certificateId: number;
  expiresAt: Date;
  days: number;
  stage: Stage;
  userId: number;
  name: string;
  surname: string;
  email: string | null;
  facilityId: number | null;
  facility: string | null;
  trainingId: number;
  training: string;
  topicId: number;
}

interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * The daily certificate-expiry run: notices to the owners of active certificates 30 and 7 days
 * before and on the expiry day, and one summary per facility and stage for its administrators
 * and supervisors. Idempotent (what was sent is recorded in the same transaction) and catching
 * up after downtime (the most urgent due stage is sent, earlier ones are marked done). E-mails
 * go out after the commit; a failing mail is logged by the mailer and never fails the job.
 */
export async function runExpiryJob(deps: Pick<AppDeps, "database" | "mailer">, now: Date): Promise<ExpiryJobResult> {
  const outcome = await deps.database.db.transaction(async (tx) => {
    const lock = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${JOB_LOCK}) as locked`);
    if (!lock.rows[0]?.locked) return null;
    const due = await findDue(tx, now);
    if (due.length === 0) return { notices: 0, summaries: 0, mails: [] as Mail[] };
    await recordNotices(tx, due);
    await notifyOwners(tx, due);
    const summaries = await notifyStaff(tx, due, now);
    return { notices: due.length, summaries: summaries.count, mails: [...ownerMails(due), ...summaries.mails] };
  });
  if (!outcome) return { ran: false, notices: 0, summaries: 0, mails: 0 };
  let mails = 0;
  // One after another: a daily job has time, and the SMTP server is spared a burst.
  for (const mail of outcome.mails) {
    if (await deps.mailer.send([mail.to], mail.subject, mail.text)) mails += 1;
  }
  return { ran: true, notices: outcome.notices, summaries: outcome.summaries, mails };
}

/**
 * Active certificates (the newest per user and training) of employees, for assigned trainings
 * that are not retired, whose most urgent due stage has not been dealt with yet.
 */
async function findDue(tx: Tx, now: Date): Promise<Due[]> {
  const active = tx
    .selectDistinctOn([certificates.userId, certificates.trainingId], {
      id: certificates.id,
      userId: certificates.userId,
      trainingId: certificates.trainingId,
      expiresAt: certificates.expiresAt,
    })
    .from(certificates)
    .orderBy(certificates.userId, certificates.trainingId, desc(certificates.acquiredAt), desc(certificates.id))
    .as("active");
  // A day of slack on both ends for time zones; the exact calendar days are counted below.
  const from = new Date(now.getTime() - (EXPIRED_GRACE_DAYS + 2) * DAY_MS);
  const to = new Date(now.getTime() + (STAGES[0] + 2) * DAY_MS);
  const rows = await tx
    .select({
      certificateId: active.id,
      expiresAt: active.expiresAt,
      userId: users.id,
      name: users.name,
      surname: users.surname,
      email: users.email,
      facilityId: users.facilityId,
      facility: facilities.name,
      trainingId: trainings.id,
      training: trainings.name,
      topicId: trainings.topicId,
    })
    .from(active)
    .innerJoin(users, eq(users.id, active.userId))
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .innerJoin(trainings, eq(trainings.id, active.trainingId))
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(
      and(
        gte(active.expiresAt, from),
        lte(active.expiresAt, to),
        eq(trainings.retired, false),
        eq(topics.retired, false),
        // Only employees learn; a user who is no longer one is not reminded.
        exists(
          tx
            .select({ one: sql`1` })
            .from(userRoles)
            .where(and(eq(userRoles.userId, users.id), eq(userRoles.role, "employee"))),
        ),
        // ARCHITECTURE decision 6: the matrix's trainings, or every training without a matrix.
        isAssigned(sql`"users"."id"`, sql`"trainings"."id"`),
      ),
    );
  const candidates = rows.flatMap((r) => {
    const days = daysUntil(r.expiresAt, now);
    const stage = dueStage(days);
    return stage === null ? [] : [{ ...r, days, stage }];
  });
  if (candidates.length === 0) return [];
  const done = new Set<string>();
  for (const ids of chunks(
    candidates.map((c) => c.certificateId),
    5_000,
  )) {
    const sent = await tx
      .select({ certificateId: certificateNotices.certificateId, stage: certificateNotices.stage })
      .from(certificateNotices)
      .where(inArray(certificateNotices.certificateId, ids));
    for (const s of sent) done.add(`${s.certificateId}:${s.stage}`);
  }
  return candidates
    .filter((c) => !done.has(`${c.certificateId}:${c.stage}`))
    .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime() || a.certificateId - b.certificateId);
}

/** The sent stage, and the less urgent ones passed over while the server was down. */
async function recordNotices(tx: Tx, due: Due[]): Promise<void> {
  const rows = due.flatMap((d) =>
    STAGES.filter((s) => s >= d.stage).map((stage) => ({
      certificateId: d.certificateId,
      stage,
      notified: stage === d.stage,
    })),
  );
  for (const part of chunks(rows, 1_000)) {
    // An earlier run may have recorded a less urgent stage already: that row stays.
    await tx.insert(certificateNotices).values(part).onConflictDoNothing();
  }
}

function ownerMessage(d: Due): CustomMessage {
  return {
    key: CERTIFICATE_KEY,
    values: {
      training: d.training,
      facility: d.facility ?? "",
      date: isoDay(d.expiresAt),
      days: String(d.days),
      stage: String(d.stage),
      topicId: String(d.topicId),
      trainingId: String(d.trainingId),
    },
  };
}

async function notifyOwners(tx: Tx, due: Due[]): Promise<void> {
  const rows: NewNotification[] = due.map((d) => ({
    userId: d.userId,
    type: "CERTIFICATE_EXPIRES",
    message: ownerMessage(d),
    expiresAt: d.expiresAt,
  }));
  await insertNotifications(tx, rows);
}

function ownerMails(due: Due[]): Mail[] {
  return due.flatMap((d) => {
    if (!d.email) return [];
    const date = formatDate(d.expiresAt);
    const expired = d.stage === 0;
    const subject = expired
      ? `CareCampus: Zertifikat „${d.training}“ ist abgelaufen / certificate "${d.training}" has expired`
      : `CareCampus: Zertifikat „${d.training}“ läuft am ${date} ab / certificate "${d.training}" expires on ${date}`;
    const text = [
      `Hallo ${d.name} ${d.surname},`,
      "",
      expired
        ? `Ihr Zertifikat „${d.training}“ ist am ${date} abgelaufen. Bitte wiederholen Sie die Schulung in CareCampus.`
        : `Ihr Zertifikat „${d.training}“ läuft am ${date} ab. Bitte frischen Sie die Schulung in CareCampus rechtzeitig auf.`,
      "",
      "---",
      "",
      `Hello ${d.name} ${d.surname},`,
      "",
      expired
        ? `your certificate "${d.training}" expired on ${date}. Please repeat the training in CareCampus.`
        : `your certificate "${d.training}" expires on ${date}. Please renew the training in CareCampus in time.`,
      "",
    ].join("\n");
    return [{ to: d.email, subject, text }];
  });
}

interface Group {
  facilityId: number;
  facility: string;
  stage: Stage;
  items: Due[];
}

/**
 * One summary per facility, stage and day for the facility's administrators and supervisors.
 * A later run on the same day extends that day's summary (count, earliest expiry) and shows it
 * again, rather than sending a second one.
 */
async function notifyStaff(tx: Tx, due: Due[], now: Date): Promise<{ count: number; mails: Mail[] }> {
  const groups = new Map<string, Group>();
  for (const d of due) {
    if (d.facilityId === null) continue;
    const key = `${d.facilityId}:${d.stage}`;
    const group = groups.get(key) ?? {
      facilityId: d.facilityId,
      facility: d.facility ?? "",
      stage: d.stage,
      items: [],
    };
    group.items.push(d);
    groups.set(key, group);
  }
  if (groups.size === 0) return { count: 0, mails: [] };
  const facilityIds = [...new Set([...groups.values()].map((g) => g.facilityId))];
  const staffRows = await tx
    .selectDistinct({ id: users.id, facilityId: users.facilityId, email: users.email })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .where(and(inArray(users.facilityId, facilityIds), inArray(userRoles.role, ["administrator", "supervisor"])));
  const day = isoDay(now);
  const mails: Mail[] = [];
  let count = 0;
  for (const group of groups.values()) {
    const staff = staffRows.filter((s) => s.facilityId === group.facilityId);
    const firstOfRun = group.items.reduce((a, b) => (b.expiresAt < a.expiresAt ? b : a)).expiresAt;
    const [earlier] = await tx
      .select()
      .from(certificateNoticeSummaries)
      .where(
        and(
          eq(certificateNoticeSummaries.facilityId, group.facilityId),
          eq(certificateNoticeSummaries.stage, group.stage),
          eq(certificateNoticeSummaries.day, day),
        ),
      );
    const total = (earlier?.certificateCount ?? 0) + group.items.length;
    const firstExpiry = earlier && earlier.firstExpiry < firstOfRun ? earlier.firstExpiry : firstOfRun;
    const identity = { facilityId: String(group.facilityId), stage: String(group.stage), day };
    const message: CustomMessage = {
      key: SUMMARY_KEY,
      values: { ...identity, facility: group.facility, count: String(total), date: isoDay(firstExpiry) },
    };
    if (earlier) {
      await tx
        .update(certificateNoticeSummaries)
        .set({ certificateCount: total, firstExpiry })
        .where(
          and(
            eq(certificateNoticeSummaries.facilityId, group.facilityId),
            eq(certificateNoticeSummaries.stage, group.stage),
            eq(certificateNoticeSummaries.day, day),
          ),
        );
    } else {
      await tx.insert(certificateNoticeSummaries).values({
        facilityId: group.facilityId,
        stage: group.stage,
        day,
        certificateCount: total,
        firstExpiry,
      });
    }
    // Staff who already have today's summary get it updated (and unread again), others a new one.
    const updated = earlier
      ? await tx
          .update(notifications)
          .set({ customMessage: message, expiresAt: firstExpiry, readAt: null })
          .where(
            and(
              inArray(
                notifications.userId,
                staff.map((s) => s.id),
              ),
              sql`${notifications.customMessage} @> ${JSON.stringify({ key: SUMMARY_KEY, values: identity })}::jsonb`,
            ),
          )
          .returning({ userId: notifications.userId })
      : [];
    const have = new Set(updated.map((u) => u.userId));
    await insertNotifications(
      tx,
      staff
        .filter((s) => !have.has(s.id))
        .map((s) => ({ userId: s.id, type: "CERTIFICATE_EXPIRES", message, expiresAt: firstExpiry })),
    );
    if (staff.length > 0) count += 1;
    mails.push(...staffMails(group, staff, total));
  }
  return { count, mails };
}

function staffMails(group: Group, staff: { email: string | null }[], total: number): Mail[] {
  const expired = group.stage === 0;
  const subject = expired
    ? `CareCampus: ${group.facility} – abgelaufene Zertifikate / expired certificates (${total})`
    : `CareCampus: ${group.facility} – Zertifikate laufen ab / certificates expiring (${total})`;
  const lines = group.items.map((d) => `- ${d.name} ${d.surname}: ${d.training} (${formatDate(d.expiresAt)})`);
  const text = [
    expired
      ? `In ${group.facility} sind diese Zertifikate abgelaufen:`
      : `In ${group.facility} laufen diese Zertifikate in den nächsten ${group.stage} Tagen ab:`,
    ...lines,
    "",
    "---",
    "",
    expired
      ? `These certificates of ${group.facility} have expired:`
      : `These certificates of ${group.facility} expire within the next ${group.stage} days:`,
    ...lines,
    "",
  ].join("\n");
  return staff.flatMap((s) => (s.email ? [{ to: s.email, subject, text }] : []));
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
