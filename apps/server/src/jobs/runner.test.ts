import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestContext } from "../../test/helpers";
import { secondServerDatabase } from "../../test/second-server";
import { advisoryKey } from "../db/locks";
import { mailOutbox } from "../db/schema";
import { enqueueMail, mailQueued } from "../mail/outbox";
import { JOB_LOCKS, JOB_NAMES, JOBS, type Job, type JobLog } from "./catalogue";
import { startJobRunner } from "./runner";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** Locks of the test jobs: in the jobs namespace, far from the catalogue's ids. */
const testLock = (n: number) => advisoryKey("jobs", 900 + n);

/** A job that records its runs and waits for `release()` before it ends. */
function gatedJob(name = "test-gated", lock = testLock(1)) {
  const runs: Date[] = [];
  let open: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const job: Job = {
    name,
    pattern: "0 6 * * *",
    lock,
    run: async (_deps, now) => {
      runs.push(now);
      await gate;
      return { done: true };
    },
    report: () => {},
  };
  return {
    job,
    runs,
    release() {
      open();
      gate = Promise.resolve();
    },
  };
}

const quiet: JobLog = { info: () => {}, error: () => {} };
const manual = { schedule: false, startDelayMs: 3_600_000 };

describe("the job catalogue", () => {
  it("names every job with its own lock and a valid pattern", () => {
    const names = JOBS.map((j) => j.name);
    expect(names).toEqual([
      JOB_NAMES.certificateExpiry,
      JOB_NAMES.calendarReminders,
      JOB_NAMES.mailSender,
      JOB_NAMES.rateLimitCleanup,
      JOB_NAMES.answerKeyCleanup,
      JOB_NAMES.storageCleanup,
      JOB_NAMES.retention,
    ]);
    expect(new Set(JOBS.map((j) => `${j.lock.namespace}:${j.lock.id}`)).size).toBe(JOBS.length);
    expect(JOBS.map((j) => j.lock)).toEqual([
      JOB_LOCKS.certificateExpiry,
      JOB_LOCKS.calendarReminders,
      JOB_LOCKS.mailSender,
      JOB_LOCKS.rateLimitCleanup,
      JOB_LOCKS.answerKeyCleanup,
      JOB_LOCKS.storageCleanup,
      JOB_LOCKS.retention,
    ]);
  });
});

describe("the job runner", () => {
  it("runs a job in one server at a time: a second runner on the same database skips it", async () => {
    const second = await secondServerDatabase(ctx);
    const { job, runs, release } = gatedJob();
    const a = startJobRunner(ctx.deps, quiet, { ...manual, jobs: [job] });
    const b = startJobRunner({ ...ctx.deps, database: second.database }, quiet, { ...manual, jobs: [job] });
    try {
      const first = a.run(job.name);
      await vi.waitFor(() => expect(runs).toHaveLength(1));
      // The lock is held by runner a (on PostgreSQL: another session): b skips.
      expect(await b.run(job.name)).toEqual({ ran: false });
      release();
      expect(await first).toEqual({ ran: true, result: { done: true } });
      // Free again: b runs now.
      expect(await b.run(job.name)).toEqual({ ran: true, result: { done: true } });
      expect(runs).toHaveLength(2);
    } finally {
      await a.stop();
      await b.stop();
      await second.close();
    }
  });

  it("runs a job once at a time in one process, and once more when asked again meanwhile", async () => {
    const { job, runs, release } = gatedJob("test-again", testLock(2));
    const runner = startJobRunner(ctx.deps, quiet, { ...manual, jobs: [job] });
    try {
      const first = runner.run(job.name);
      const second = runner.run(job.name);
      await vi.waitFor(() => expect(runs).toHaveLength(1));
      release();
      await first;
      await second;
      await vi.waitFor(() => expect(runs).toHaveLength(2));
    } finally {
      await runner.stop();
    }
  });

  it("stops cleanly: stop waits for the running job, and nothing starts afterwards", async () => {
    const { job, runs, release } = gatedJob("test-stop", testLock(3));
    const runner = startJobRunner(ctx.deps, quiet, { ...manual, jobs: [job] });
    const running = runner.run(job.name);
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
    expect(await running).toEqual({ ran: true, result: { done: true } });
    expect(await runner.run(job.name)).toEqual({ ran: false });
    expect(runs).toHaveLength(1);
    // The lock went with the run: another runner gets it.
    const other = startJobRunner(ctx.deps, quiet, { ...manual, jobs: [job] });
    expect((await other.run(job.name)).ran).toBe(true);
    await other.stop();
  });

  it("logs a failing job and runs it again next time", async () => {
    let calls = 0;
    const failing: Job = {
      name: "test-failing",
      pattern: "0 6 * * *",
      lock: testLock(4),
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error("boom");
        return {};
      },
      report: () => {},
    };
    const errors: object[] = [];
    const runner = startJobRunner(
      ctx.deps,
      { info: () => {}, error: (obj) => errors.push(obj) },
      { ...manual, jobs: [failing] },
    );
    try {
      expect(await runner.run(failing.name)).toEqual({ ran: false });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ job: "test-failing" });
      expect((await runner.run(failing.name)).ran).toBe(true);
    } finally {
      await runner.stop();
    }
  });

  it("schedules in the configured TIME_ZONE, not the process's", () => {
    const at = (zone: string, from: string) => {
      const runner = startJobRunner({ ...ctx.deps, config: { ...ctx.deps.config, timeZone: zone } }, quiet, manual);
      const next = runner.nextRun(JOB_NAMES.certificateExpiry, new Date(from))?.toISOString();
      void runner.stop();
      return next;
    };
    // 06:00 in Berlin: 05:00 UTC in winter, 04:00 UTC in summer.
    expect(at("Europe/Berlin", "2026-11-22T12:00:00Z")).toBe("2026-11-23T05:00:00.000Z");
    expect(at("Europe/Berlin", "2026-07-01T12:00:00Z")).toBe("2026-07-02T04:00:00.000Z");
    // Across the change to summer time (29 March 2026 at 02:00).
    expect(at("Europe/Berlin", "2026-03-28T12:00:00Z")).toBe("2026-03-29T04:00:00.000Z");
    // Just before Berlin's 06:00 the run is minutes away; other zones have their own 06:00.
    expect(at("Europe/Berlin", "2026-11-23T04:59:00Z")).toBe("2026-11-23T05:00:00.000Z");
    expect(at("America/Los_Angeles", "2026-11-22T12:00:00Z")).toBe("2026-11-22T14:00:00.000Z");
    expect(at("Pacific/Kiritimati", "2026-11-22T12:00:00Z")).toBe("2026-11-22T16:00:00.000Z");
  });

  it("runs every job once after start, and the mail sender at once when a mail was queued", async () => {
    const { db } = ctx.deps.database;
    // Queued before the start: the start-up round sends it (no SMTP_URL in this app: queued mails
    // are marked skipped). Queued after the runner started, the mail job's start-up run could come
    // first and leave it for the next minute, which this runner without a schedule never has.
    const [early] = await db
      .insert(mailOutbox)
      .values({ recipients: ["a@example.org"], subject: "s", text: "t" })
      .returning({ id: mailOutbox.id });
    const runner = startJobRunner(ctx.deps, quiet, { schedule: false, startDelayMs: 0 });
    try {
      await vi.waitFor(
        async () => {
          const [row] = await db
            .select()
            .from(mailOutbox)
            .where(eq(mailOutbox.id, early?.id ?? 0));
          expect(row?.status).toBe("skipped");
        },
        { timeout: 20_000, interval: 50 },
      );
      // A mail queued later is handled without waiting for the next minute.
      await enqueueMail(db, [{ to: ["b@example.org"], subject: "s", text: "t" }], ctx.deps.now());
      mailQueued();
      await vi.waitFor(
        async () => {
          const rows = await db.select().from(mailOutbox).where(eq(mailOutbox.status, "pending"));
          expect(rows).toEqual([]);
        },
        { timeout: 5_000, interval: 20 },
      );
    } finally {
      await runner.stop();
    }
  });
});
