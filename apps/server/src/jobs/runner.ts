import { Cron } from "croner";
import { onMailQueued } from "../mail/outbox";
import { JOB_NAMES, JOBS, type Job, type JobDeps, type JobLog } from "./catalogue";

export interface RunnerOptions {
  jobs?: readonly Job[];
  /** The catch-up run of every job after start (a day's stage may have passed while down). */
  startDelayMs?: number;
  /** Cron schedules off (tests drive the runs themselves). */
  schedule?: boolean;
}

export interface JobRun {
  /** False when another server (or runner) held the job's lock, or the runner was stopped. */
  ran: boolean;
  result?: object;
}

export interface JobRunner {
  /** Runs a job now unless it is running here already (then it runs once more afterwards). */
  run(name: string): Promise<JobRun>;
  /** The next scheduled start of a job after `from`, in the configured time zone. */
  nextRun(name: string, from?: Date): Date | null;
  /** Ends the schedules and waits for the runs in progress, so the database can close after them. */
  stop(): Promise<void>;
}

interface State {
  job: Job;
  cron: Cron | null;
  running: Promise<JobRun> | null;
  again: boolean;
}

/**
 * Runs the job catalogue: each job on its cron pattern in the configured TIME_ZONE and once
 * shortly after start, under the job's PostgreSQL advisory lock (a server whose peer holds it
 * skips the run), never twice at once in this process. Results and failures are logged.
 */
export function startJobRunner(deps: JobDeps, log: JobLog, options: RunnerOptions = {}): JobRunner {
  const zone = deps.config.timeZone;
  let stopped = false;
  const states = new Map<string, State>();
  for (const job of options.jobs ?? JOBS) {
    const state: State = { job, cron: null, running: null, again: false };
    states.set(job.name, state);
    state.cron = new Cron(
      job.pattern,
      { timezone: zone, protect: true, unref: true, paused: options.schedule === false },
      () => {
        void trigger(state);
      },
    );
  }

  const attempt = async (state: State): Promise<JobRun> => {
    const release = await deps.database.tryAdvisoryLock(state.job.lock);
    if (!release) return { ran: false };
    try {
      const result = await state.job.run(deps, deps.now());
      state.job.report(result, log);
      return { ran: true, result };
    } finally {
      await release();
    }
  };

  function trigger(state: State): Promise<JobRun> {
    if (stopped) return Promise.resolve({ ran: false });
    if (state.running) {
      state.again = true;
      return state.running;
    }
    state.running = attempt(state)
      .catch((err: unknown): JobRun => {
        log.error({ err, job: state.job.name }, `${state.job.name} job failed`);
        return { ran: false };
      })
      .finally(() => {
        state.running = null;
        if (state.again && !stopped) {
          state.again = false;
          void trigger(state);
        }
      });
    return state.running;
  }

  const catchUp = setTimeout(() => {
    for (const state of states.values()) void trigger(state);
  }, options.startDelayMs ?? 1_000);
  catchUp.unref();
  // A mail queued in this process goes out at once, not with the next minute.
  const stopListening = onMailQueued(() => {
    const sender = states.get(JOB_NAMES.mailSender);
    if (sender) void trigger(sender);
  });

  return {
    run(name) {
      const state = states.get(name);
      if (!state) throw new Error(`unknown job ${name}`);
      return trigger(state);
    },
    nextRun(name, from) {
      return states.get(name)?.cron?.nextRun(from) ?? null;
    },
    async stop() {
      stopped = true;
      clearTimeout(catchUp);
      stopListening();
      for (const state of states.values()) state.cron?.stop();
      // A run may queue another (again) only while not stopped: one wait per job suffices.
      await Promise.all([...states.values()].map((s) => s.running));
    },
  };
}
