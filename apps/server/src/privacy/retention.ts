import { calendarDay, zonedTime } from "@carecampus/contract";
import { and, eq, isNotNull, isNull, max, sql } from "drizzle-orm";
import type { Config } from "../config";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { calendarInvitees, certificates, users, wikiConfirmations } from "../db/schema";
import { runTransaction } from "../db/transaction";
import { erasePerson } from "./erasure";

/*
 * Retention (issue 28): a former employee's training record is kept RETENTION_YEARS, counted
 * from the end of the year in which the later of the day they left and the expiry of their last
 * certificate falls; the daily job erases them once that period has ended.
 */

export interface RetentionPeriod {
  /** The last day the record is kept (YYYY-MM-DD, the 31st of December). */
  lastDay: string;
  /** The first instant after it, in TIME_ZONE: from here on the person is erased. */
  ends: Date;
}

/** The retention of a person who left at `leftAt` and whose last certificate expires at `lastExpiry`. */
export function retentionPeriod(leftAt: Date, lastExpiry: Date | null, years: number, zone: string): RetentionPeriod {
  const later = lastExpiry && lastExpiry > leftAt ? lastExpiry : leftAt;
  const year = calendarDay(later, zone).year + years;
  return { lastDay: `${String(year).padStart(4, "0")}-12-31`, ends: zonedTime(zone, year + 1, 1, 1) };
}

/** The expiry of the person's last certificate (null without one). */
export async function lastCertificateExpiry(db: Db | Tx, userId: number): Promise<Date | null> {
  const [row] = await db
    .select({ last: max(certificates.expiresAt) })
    .from(certificates)
    .where(eq(certificates.userId, userId));
  return row?.last ?? null;
}

/** Does the person have a training record the facility must be able to prove (certificates, attendance, read confirmations)? */
export async function hasTrainingRecord(db: Db | Tx, userId: number): Promise<boolean> {
  const [row] = await db
    .execute<{ found: boolean }>(sql`select
      exists (select 1 from ${certificates} where ${certificates.userId} = ${userId})
      or exists (select 1 from ${calendarInvitees} where ${calendarInvitees.userId} = ${userId} and ${calendarInvitees.attended})
      or exists (select 1 from ${wikiConfirmations} where ${wikiConfirmations.userId} = ${userId}) as found`)
    .then((r) => r.rows);
  return row?.found === true;
}

/** Former employees, not yet erased, whose retention has ended at `now`. */
export async function retentionEnded(db: Db | Tx, now: Date, years: number, zone: string): Promise<number[]> {
  const formers = await db
    .select({ id: users.id, leftAt: users.archivedAt, last: max(certificates.expiresAt) })
    .from(users)
    .leftJoin(certificates, eq(certificates.userId, users.id))
    .where(and(isNotNull(users.archivedAt), isNull(users.erasedAt)))
    .groupBy(users.id);
  return formers
    .filter((f) => f.leftAt && now >= retentionPeriod(f.leftAt, f.last ?? null, years, zone).ends)
    .map((f) => f.id);
}

/**
 * The daily retention job: erases each former employee whose retention ended, one transaction
 * each (a failure leaves the others erased). Each is checked again under the erasure lock, so a
 * person restored meanwhile stays.
 */
export async function runRetentionJob(
  deps: { database: { db: Db }; config: Pick<Config, "retentionYears" | "timeZone"> },
  now: Date,
) {
  const { db } = deps.database;
  const { retentionYears: years, timeZone: zone } = deps.config;
  let erased = 0;
  for (const id of await retentionEnded(db, now, years, zone)) {
    const done = await runTransaction(db, async (tx) => {
      await lockForTransaction(tx, "erasure", id);
      const [still] = await tx
        .select({ leftAt: users.archivedAt })
        .from(users)
        .where(and(eq(users.id, id), isNull(users.erasedAt)));
      if (!still?.leftAt) return false;
      const period = retentionPeriod(still.leftAt, await lastCertificateExpiry(tx, id), years, zone);
      if (now < period.ends) return false;
      return erasePerson(tx, id, now, { reason: "retention" });
    });
    if (done) erased += 1;
  }
  return { erased };
}
