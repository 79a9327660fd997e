import { Cron } from "croner";
import type { AppDeps } from "../deps";
import { type ExpiryJobResult, runExpiryJob } from "./expiry-job";

/** Every day at 06:00 server time, before the early shift starts. */
export const EXPIRY_JOB_PATTERN = "0 6 * * *";

export interface JobLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SchedulerOptions {
  pattern?: string;
  /** The catch-up run after start (a day's stage may have passed while the server was down). */
  startDelayMs?: number;
}

export interface Scheduler {
  /** Ends the schedule and waits for a run in progress, so the database can close after it. */
  stop(): Promise<void>;
}

/**
 * Runs the certificate-expiry job daily and once shortly after start. Every server may run this:
 * the job itself takes a PostgreSQL advisory lock, so only one of them works at a time.
 */
export function startScheduler(
  deps: Pick<AppDeps, "database" | "mailer" | "now">,
  log: JobLog,
  options: SchedulerOptions = {},
): Scheduler {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (stopped || running) return running ?? Promise.resolve();
    const started = deps.now();
    running = runExpiryJob(deps, started)
      .then((result: ExpiryJobResult) => {
        if (result.ran && (result.notices > 0 || result.summaries > 0)) {
          log.info({ ...result }, "certificate-expiry job: notifications sent");
        }
      })
      .catch((err: unknown) => log.error({ err }, "certificate-expiry job failed"))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const cron = new Cron(options.pattern ?? EXPIRY_JOB_PATTERN, { protect: true, unref: true }, () => run());
  const catchUp = setTimeout(() => void run(), options.startDelayMs ?? 1_000);
  catchUp.unref();
  return {
    async stop() {
      stopped = true;
      cron.stop();
      clearTimeout(catchUp);
      await running;
    },
  };
}
