import type { FastifyBaseLogger } from "fastify";

/** Work a request starts and does not wait for (e.g. notifying after the answer is sent). */
export interface Background {
  /** Runs `task` on the next turn of the event loop; a failure is logged, never thrown. */
  run(name: string, task: () => Promise<unknown>): void;
  /** Resolves when every task started so far has ended (shutdown, tests). */
  idle(): Promise<void>;
}

export function createBackground(log: FastifyBaseLogger): Background {
  const pending = new Set<Promise<void>>();
  return {
    run(name, task) {
      const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .then(
          () => {},
          (err: unknown) => log.error({ err, task: name }, `background task ${name} failed`),
        )
        .finally(() => pending.delete(done));
      pending.add(done);
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
