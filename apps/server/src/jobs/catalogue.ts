import { runCalendarReminders } from "../calendar/reminders";
import { type AdvisoryKey, advisoryKey } from "../db/locks";
import type { AppDeps } from "../deps";
import { pruneAnswerRequests } from "../learning/answer-keys";
import { sendDueMails } from "../mail/outbox";
import { runExpiryJob } from "../notifications/expiry-job";
import { runRetentionJob } from "../privacy/retention";
import { pruneRateLimits } from "../security/limits";
import { deleteUnusedChunks } from "../storage/cleanup";

/**
 * PostgreSQL advisory locks of the background jobs, one per job in the jobs namespace of
 * db/locks.ts: a job runs in one server at a time however many share the database
 * (ARCHITECTURE decision 18).
 */
export const JOB_LOCKS = {
  certificateExpiry: advisoryKey("jobs", 1),
  mailSender: advisoryKey("jobs", 2),
  calendarReminders: advisoryKey("jobs", 3),
  rateLimitCleanup: advisoryKey("jobs", 4),
  storageCleanup: advisoryKey("jobs", 5),
  retention: advisoryKey("jobs", 6),
  answerKeyCleanup: advisoryKey("jobs", 7),
} as const;

export const JOB_NAMES = {
  certificateExpiry: "certificate-expiry",
  mailSender: "mail-sender",
  calendarReminders: "calendar-reminders",
  rateLimitCleanup: "rate-limit-cleanup",
  storageCleanup: "storage-cleanup",
  retention: "retention",
  answerKeyCleanup: "answer-key-cleanup",
} as const;

export type JobDeps = Pick<AppDeps, "database" | "mailer" | "config" | "now">;

export interface JobLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface Job {
  name: string;
  /** Cron pattern, read in the configured TIME_ZONE. */
  pattern: string;
  lock: AdvisoryKey;
  run(deps: JobDeps, now: Date): Promise<object>;
  /** Writes what is worth logging of a run's result (nothing for an idle run). */
  report(result: object, log: JobLog): void;
}

/** The background jobs of a server (started by main.ts unless NOTIFICATION_JOB=false). */
export const JOBS: readonly Job[] = [
  {
    name: JOB_NAMES.certificateExpiry,
    // Every day at 06:00 in TIME_ZONE, before the early shift starts.
    pattern: "0 6 * * *",
    lock: JOB_LOCKS.certificateExpiry,
    run: (deps, now) => runExpiryJob(deps, now),
    report(result, log) {
      const r = result as Awaited<ReturnType<typeof runExpiryJob>>;
      if (r.notices > 0 || r.summaries > 0)
        log.info({ job: JOB_NAMES.certificateExpiry, ...r }, "certificate-expiry job: notifications sent");
    },
  },
  {
    name: JOB_NAMES.calendarReminders,
    // Hourly in TIME_ZONE: the day-before and morning reminders go out from REMINDER_HOUR on,
    // and an event planned for later the same day is still announced within the hour.
    pattern: "0 * * * *",
    lock: JOB_LOCKS.calendarReminders,
    run: (deps, now) => runCalendarReminders(deps, now),
    report(result, log) {
      const r = result as Awaited<ReturnType<typeof runCalendarReminders>>;
      if (r.reminders > 0) log.info({ job: JOB_NAMES.calendarReminders, ...r }, "calendar reminders sent");
    },
  },
  {
    name: JOB_NAMES.mailSender,
    // Every minute: retries fall due; new mails are sent at once (the runner is kicked on enqueue).
    pattern: "* * * * *",
    lock: JOB_LOCKS.mailSender,
    run: (deps, now) => sendDueMails(deps, now),
    report(result, log) {
      const r = result as Awaited<ReturnType<typeof sendDueMails>>;
      for (const e of r.errors)
        log.error(
          { job: JOB_NAMES.mailSender, mail: e.id, attempt: e.attempt, error: e.error },
          "mail not accepted by the SMTP server",
        );
      if (r.failed > 0)
        log.error(
          { job: JOB_NAMES.mailSender, failed: r.failed },
          "mails given up after the last attempt (status failed)",
        );
      if (r.sent > 0 || r.skipped > 0 || r.retried > 0) {
        const { errors: _errors, ...counts } = r;
        log.info(
          { job: JOB_NAMES.mailSender, ...counts },
          r.skipped > 0 ? "mail sender: no SMTP_URL, mails skipped" : "mail sender: mails sent",
        );
      }
    },
  },
  {
    name: JOB_NAMES.rateLimitCleanup,
    // Hourly: the counters of logins and IPs whose windows and locks have long ended.
    pattern: "17 * * * *",
    lock: JOB_LOCKS.rateLimitCleanup,
    run: (deps, now) => pruneRateLimits(deps.database.db, now),
    report() {},
  },
  {
    name: JOB_NAMES.answerKeyCleanup,
    // Hourly: the kept answers of Idempotency-Keys older than ANSWER_KEY_DAYS (learning/answer-keys.ts).
    pattern: "29 * * * *",
    lock: JOB_LOCKS.answerKeyCleanup,
    run: (deps, now) => pruneAnswerRequests(deps.database.db, now),
    report() {},
  },
  {
    name: JOB_NAMES.storageCleanup,
    // Hourly: the bytes of uploads a stopped server left without their media row.
    pattern: "43 * * * *",
    lock: JOB_LOCKS.storageCleanup,
    run: (deps, now) => deleteUnusedChunks(deps.database.db, now),
    report(result, log) {
      const r = result as Awaited<ReturnType<typeof deleteUnusedChunks>>;
      if (r.files > 0) log.info({ job: JOB_NAMES.storageCleanup, ...r }, "storage cleanup: unused uploads deleted");
    },
  },
  {
    name: JOB_NAMES.retention,
    // Every day at 03:30 in TIME_ZONE: erases former employees whose RETENTION_YEARS ended
    // (a year ends at midnight of TIME_ZONE; the first run after it erases).
    pattern: "30 3 * * *",
    lock: JOB_LOCKS.retention,
    run: (deps, now) => runRetentionJob(deps, now),
    report(result, log) {
      const r = result as Awaited<ReturnType<typeof runRetentionJob>>;
      if (r.erased > 0) log.info({ job: JOB_NAMES.retention, ...r }, "retention: former employees erased");
    },
  },
];
