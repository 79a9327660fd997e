import cluster, { type Worker } from "node:cluster";
import type { Config } from "../config";

/*
 * WORKERS=N (PostgreSQL only): `npm run serve` starts N server processes that share the port
 * (node:cluster hands them the connections in turn). Each is a whole server on the one database,
 * as behind a load balancer (README 'Running several servers'): migrations and seeding under
 * their locks, sessions and content in memory kept current by the database's notifications. The
 * first worker runs the background jobs. A worker that ends is started again; one that ends
 * before it ever listened (a configuration or database error) stops them all.
 */

/** QUERY_STATS in a cluster: the primary asks every worker for its counts (main.ts answers). */
export const STATS_REQUEST = "cc-stats-request";
export const STATS_REPLY = "cc-stats-reply";

interface Stats {
  queries: number;
  cpuMicros: number;
}

export function superviseWorkers(config: Config): void {
  const index = new Map<Worker, number>();
  const listened = new Set<Worker>();
  let stopping = false;

  const fork = (i: number) => {
    const worker = cluster.fork({ CC_WORKER: String(i) });
    index.set(worker, i);
    worker.once("listening", () => listened.add(worker));
  };
  const stop = (code: number) => {
    stopping = true;
    process.exitCode = code;
    for (const worker of index.keys()) worker.process.kill("SIGTERM");
    if (index.size === 0) process.exit(code);
  };

  cluster.on("exit", (worker, code, signal) => {
    const i = index.get(worker) ?? 0;
    index.delete(worker);
    if (stopping) {
      if (index.size === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    if (!listened.has(worker)) {
      console.error(`Worker ${i} could not start (exit ${signal ?? code}); stopping.`);
      stop(1);
      return;
    }
    listened.delete(worker);
    console.error(`Worker ${i} ended (${signal ?? `exit ${code}`}); starting it again.`);
    setTimeout(() => {
      if (!stopping) fork(i);
    }, 1_000);
  });
  process.on("SIGTERM", () => stop(0));
  process.on("SIGINT", () => stop(0));

  if (config.queryStats) {
    // What every process of the server spent (the workers' and this one's, which hands out the
    // connections), for `npm run bench`.
    process.on("SIGUSR2", async () => {
      const workers = [...index.keys()];
      const replies = await Promise.all(
        workers.map(
          (worker) =>
            new Promise<Stats>((resolve) => {
              const timer = setTimeout(() => resolve({ queries: 0, cpuMicros: 0 }), 2_000);
              const onMessage = (m: { type?: string } & Stats) => {
                if (m?.type !== STATS_REPLY) return;
                clearTimeout(timer);
                worker.off("message", onMessage);
                resolve({ queries: m.queries, cpuMicros: m.cpuMicros });
              };
              worker.on("message", onMessage);
              worker.send({ type: STATS_REQUEST });
            }),
        ),
      );
      const own = process.cpuUsage();
      const total = replies.reduce(
        (a, r) => ({ queries: a.queries + r.queries, cpuMicros: a.cpuMicros + r.cpuMicros }),
        {
          queries: 0,
          cpuMicros: own.user + own.system,
        },
      );
      console.log(`QUERY_STATS ${JSON.stringify(total)}`);
    });
  }

  for (let i = 1; i <= config.workers; i++) fork(i);
}
