import fs from "node:fs";
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { type CycleLog, cycle, type Learner, ownConnection } from "./learner";

/*
 * The independent probe: a second load generator in a process of its own, started by quiz-load.ts
 * with a few learners of its own, each on its own connection, each answering a question every
 * PERIOD ms, as a person does: the next question only once the last answer came back (a cycle
 * that falls due meanwhile is skipped and counted, not queued behind it on the one socket). At this
 * low rate the probe's own event loop stays idle, so what it measures is the server's latency as a
 * client that is not itself overloaded sees it, next to what the main generator (thousands of
 * sockets in one process, open loop) measures.
 *
 * node --import tsx bench/src/probe.ts config.json; prints "ready", starts on a line "start" on
 * stdin, and after the config's seconds prints one line "PROBE {json}".
 */

export interface ProbeConfig {
  learners: Omit<Learner, "known" | "agent">[];
  seconds: number;
  periodMs: number;
}

export interface ProbeResult {
  gets: { ms: number; ok: boolean }[];
  posts: { ms: number; ok: boolean }[];
  /** The probe's own event-loop delay, p99, ms: near 0 means its figures are the server's. */
  loopDelayP99: number;
  cpuMs: number;
  /** Cycles that fell due while the learner's last one was still waiting for the server. */
  skipped: number;
}

const config = JSON.parse(fs.readFileSync(process.argv[2] as string, "utf8")) as ProbeConfig;
const learners: Learner[] = config.learners.map((l) => ({ ...l, known: new Map(), agent: ownConnection() }));
const unused = new http.Agent();

process.stdout.write("ready\n");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const cpu = process.cpuUsage();
const log: CycleLog = { gets: [], posts: [], moved: 0 };
let skipped = 0;
const started = performance.now();
await Promise.all(
  learners.map(async (learner) => {
    let due = started + Math.random() * config.periodMs;
    while (due < started + config.seconds * 1000) {
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      await cycle(learner, unused, log);
      due += config.periodMs;
      while (due < performance.now()) {
        skipped++;
        due += config.periodMs;
      }
    }
  }),
);
loop.disable();
const used = process.cpuUsage(cpu);
const result: ProbeResult = {
  gets: log.gets.map(({ ms, ok }) => ({ ms, ok })),
  posts: log.posts.map(({ ms, ok }) => ({ ms, ok })),
  loopDelayP99: loop.percentile(99) / 1e6,
  cpuMs: (used.user + used.system) / 1000,
  skipped,
};
process.stdout.write(`PROBE ${JSON.stringify(result)}\n`);
for (const l of learners) l.agent?.destroy();
process.exit(0);
