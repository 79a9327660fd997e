import { daysUntil, formatDate, isoDay, type Language, NotificationMessageKey } from "@carecampus/contract";
import { and, desc, eq, exists, gte, inArray, lte, sql } from "drizzle-orm";
import { currentMember } from "../access/scope";
import { isAssigned } from "../assignments/service";
import { validCertificate } from "../db/certificates";
import type { Db, Tx } from "../db/client";
import {
  certificateNoticeSummaries,
  certificateNotices,
  certificates,
  facilities,
  notifications,
  preferences,
  topics,
  trainings,
  userRoles,
  users,
} from "../db/schema";
import { enqueueMail, mailQueued, type OutgoingMail } from "../mail/outbox";
import { fill, mailBody, mailLanguage, mailTexts } from "../mail/templates";
import { type CustomMessage, insertNotifications, type NewNotification } from "./service";

/** Days before expiry at which a notice goes out (ARCHITECTURE decision 7), least urgent first. */
export const STAGES = [30, 7, 0] as const;
export type Stage = (typeof STAGES)[number];

/** A certificate that expired longer ago than this gets no notice any more (no spam from old data). */
export const EXPIRED_GRACE_DAYS = 7;

export const CERTIFICATE_KEY = NotificationMessageKey.certificateExpires;
export const SUMMARY_KEY = NotificationMessageKey.certificatesExpireSummary;

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

export interface ExpiryJobResult {
  /** Certificate notices sent to employees. */
  notices: number;
  /** Facility summaries created or extended. */
  summaries: number;
  /** E-mails queued in the outbox (sent by the mail sender job). */
  mails: number;
}

interface Due {
  certificateId: number;
  language: Language;
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

/**
 * The daily certificate-expiry run: notices to the owners of active certificates 30 and 7 days
 * before and on the expiry day, and one summary per facility and stage for its administrators
 * and supervisors. Idempotent (what was sent is recorded in the same transaction) and catching
 * up after downtime (the most urgent due stage is sent, earlier ones are marked done). Calendar
 * days are those of the configured TIME_ZONE. E-mails go to the outbox in the same transaction,
 * in each recipient's language; the mail sender job delivers them. The job runner keeps two
 * servers from running this at once (jobs/catalogue.ts).
 */
export async function runExpiryJob(
  deps: { database: { db: Db }; config: { timeZone: string } },
  now: Date,
): Promise<ExpiryJobResult> {
  const zone = deps.config.timeZone;
  const outcome = await deps.database.db.transaction(async (tx) => {
    const due = await findDue(tx, now, zone);
    if (due.length === 0) return { notices: 0, summaries: 0, mails: 0 };
    await recordNotices(tx, due);
    await notifyOwners(tx, due, zone);
    const summaries = await notifyStaff(tx, due, now, zone);
    const mails = await enqueueMail(tx, [...ownerMails(due, zone), ...summaries.mails], now);
    return { notices: due.length, summaries: summaries.count, mails };
  });
  if (outcome.mails > 0) mailQueued();
  return outcome;
}

/**
 * Active certificates (the newest per user and training that is not revoked) of employees, for assigned trainings
 * that are not retired, whose most urgent due stage has not been dealt with yet.
 */
async function findDue(tx: Tx, now: Date, zone: string): Promise<Due[]> {
  const active = tx
    .selectDistinctOn([certificates.userId, certificates.trainingId], {
      id: certificates.id,
      userId: certificates.userId,
      trainingId: certificates.trainingId,
      expiresAt: certificates.expiresAt,
    })
    .from(certificates)
    .where(validCertificate)
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
      preference: preferences.language,
      facilityId: users.facilityId,
      facility: facilities.name,
      trainingId: trainings.id,
      training: trainings.name,
      topicId: trainings.topicId,
    })
    .from(active)
    .innerJoin(users, eq(users.id, active.userId))
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .leftJoin(preferences, eq(preferences.userId, users.id))
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
        // A former employee gets no mail and is in no summary (issue 28).
        currentMember,
        // ARCHITECTURE decision 6: the matrix's trainings, or every training without a matrix.
        isAssigned(sql`"users"."id"`, sql`"trainings"."id"`),
      ),
    );
  const candidates = rows.flatMap(({ preference, ...r }) => {
    const days = daysUntil(r.expiresAt, now, zone);
    const stage = dueStage(days);
    return stage === null ? [] : [{ ...r, language: mailLanguage(preference), days, stage }];
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

function ownerMessage(d: Due, zone: string): CustomMessage {
  return {
    key: CERTIFICATE_KEY,
    values: {
      training: d.training,
      facility: d.facility ?? "",
      date: isoDay(d.expiresAt, zone),
      days: String(d.days),
      stage: String(d.stage),
      topicId: String(d.topicId),
      trainingId: String(d.trainingId),
    },
  };
}

async function notifyOwners(tx: Tx, due: Due[], zone: string): Promise<void> {
  const rows: NewNotification[] = due.map((d) => ({
    userId: d.userId,
    type: "CERTIFICATE_EXPIRES",
    message: ownerMessage(d, zone),
    expiresAt: d.expiresAt,
  }));
  await insertNotifications(tx, rows);
}

function ownerMails(due: Due[], zone: string): OutgoingMail[] {
  return due.flatMap((d) => {
    if (!d.email) return [];
    const texts = mailTexts(d.language);
    const part = d.stage === 0 ? texts.certificateExpired : texts.certificateExpires;
    const values = { training: d.training, date: formatDate(d.expiresAt, zone), name: d.name, surname: d.surname };
    const text = mailBody(d.language, [fill(texts.greeting, values), "", fill(part.text, values)]);
    return [{ to: [d.email], subject: fill(part.subject, values), text }];
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
async function notifyStaff(
  tx: Tx,
  due: Due[],
  now: Date,
  zone: string,
): Promise<{ count: number; mails: OutgoingMail[] }> {
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
    .selectDistinct({
      id: users.id,
      facilityId: users.facilityId,
      email: users.email,
      name: users.name,
      surname: users.surname,
      preference: preferences.language,
    })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(preferences, eq(preferences.userId, users.id))
    .where(
      and(
        inArray(users.facilityId, facilityIds),
        inArray(userRoles.role, ["administrator", "supervisor"]),
        currentMember,
      ),
    );
  const day = isoDay(now, zone);
  const mails: OutgoingMail[] = [];
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
      values: { ...identity, facility: group.facility, count: String(total), date: isoDay(firstExpiry, zone) },
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
    mails.push(...staffMails(group, staff, total, zone));
  }
  return { count, mails };
}

interface Staff {
  email: string | null;
  name: string;
  surname: string;
  preference: string | null;
}

/** The summary as a mail to each staff member with an address, in their language. */
function staffMails(group: Group, staff: Staff[], total: number, zone: string): OutgoingMail[] {
  return staff.flatMap((s) => {
    if (!s.email) return [];
    const language = mailLanguage(s.preference);
    const texts = mailTexts(language);
    const part = group.stage === 0 ? texts.summaryExpired : texts.summaryExpires;
    const values = { facility: group.facility, count: total, stage: group.stage, name: s.name, surname: s.surname };
    const lines = group.items.map(
      (d) =>
        `- ${fill(texts.summaryLine, { name: d.name, surname: d.surname, training: d.training, date: formatDate(d.expiresAt, zone) })}`,
    );
    const text = mailBody(language, [fill(texts.greeting, values), "", fill(part.text, values), ...lines]);
    return [{ to: [s.email], subject: fill(part.subject, values), text }];
  });
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
