import fs from "node:fs";
import http from "node:http";
import pg from "pg";
import { withFreshDatabase } from "./fresh";
import { type Ack, ms, ownConnection, type Sample } from "./learner";
import {
  makeLearners,
  openLoop,
  PROBE_LEARNERS,
  prepareQuiz,
  printOpenLoop,
  QUIZ_SERVER_ENV,
  statsReader,
} from "./quiz-load";
import { startServer, stopServer } from "./server";

/*
 * The kill run (BENCH_ONLY=quiz-kill, PostgreSQL only): the quiz-load scenario against a server
 * of WORKERS=2, and in the middle of it one worker is killed with SIGKILL (kill -9). The other
 * worker serves on and the primary starts the killed one again (system/cluster.ts). Every answer
 * the server acknowledged (200) is recorded by the generator and read back from quiz_attempts
 * after the run: none may be missing. Errors are told apart by when their request was sent:
 * in flight at the kill (sent before it, failed after it) or not; only the first kind may occur.
 */

const SECONDS = Number(process.env.BENCH_KILL_SECONDS ?? 20);

/** The worker processes of a cluster's primary: its children, from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children.sort((a, b) => a - b);
}

/**
 * The acknowledged answers read back from quiz_attempts. `missing`: no attempt of that learner at
 * that question at all (must be 0). `repeats`: an attempt is there, with other answers: the
 * learner had posted that question more than once (open loop: two cycles of one learner can ask
 * the same question before either answer is back), and a repeat in the same round is acknowledged
 * but recorded once, the first. `unexplained`: other answers although posted once (must be 0).
 */
async function readBack(
  url: string,
  acks: Ack[],
  posted: Map<string, number>,
): Promise<{ missing: number; repeats: number; unexplained: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ u: number; qn: number; q: number; ids: number[] }>(
      "select user_id as u, questionnaire_id as qn, question_id as q, answer_ids as ids from quiz_attempts",
    );
    const ids = (xs: number[]) => [...xs].sort((a, b) => a - b).join(",");
    const exact = new Set<string>();
    const question = new Set<string>();
    for (const r of rows.rows) {
      question.add(`${r.u}:${r.qn}:${r.q}`);
      exact.add(`${r.u}:${r.qn}:${r.q}:${ids(r.ids)}`);
    }
    let missing = 0;
    let repeats = 0;
    let unexplained = 0;
    for (const a of acks) {
      const key = `${a.userId}:${a.questionnaireId}:${a.questionId}`;
      if (!question.has(key)) missing++;
      else if (!exact.has(`${key}:${ids(a.answerIds)}`)) {
        if ((posted.get(key) ?? 0) > 1) repeats++;
        else unexplained++;
      }
    }
    return { missing, repeats, unexplained };
  } finally {
    await client.end();
  }
}

export async function quizKill(url: string, port: number, learners: number): Promise<void> {
  const mode = process.env.BENCH_KILL_MODE ?? "pooled";
  await withFreshDatabase(
    url,
    "kill",
    (db) => prepareQuiz(db),
    async (env) => {
      const stats = statsReader();
      const server = await startServer(port, { ...env, ...QUIZ_SERVER_ENV, WORKERS: "2" }, { onStdout: stats.onLine });
      try {
        const base = `http://127.0.0.1:${port}`;
        const prepared = performance.now();
        const all = await makeLearners(base, learners + PROBE_LEARNERS);
        const load = all.slice(0, learners);
        const probeLearners = all.slice(learners);
        const workers = childrenOf(server.pid as number);
        console.log(
          `\nPostgreSQL, WORKERS=2 (workers ${workers.join(", ")}): ${learners} learners imported and logged in (${((performance.now() - prepared) / 1000).toFixed(0)} s); ${SECONDS} s of load, ${mode === "per-learner" ? "one connection per learner" : "pooled over 256 sockets"}, one worker killed with SIGKILL after ${SECONDS / 2} s; cluster scheduling ${process.env.NODE_CLUSTER_SCHED_POLICY ?? "rr"}`,
        );
        const shared = new http.Agent({ keepAlive: true, maxSockets: 256 });
        for (const l of load) l.agent = mode === "per-learner" ? ownConnection() : undefined;
        let killAt = Number.NaN;
        let killed = 0;
        const r = await openLoop(server, stats, load, probeLearners, shared, SECONDS, {
          acks: true,
          during: async (started) => {
            await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1000) / 2));
            killed = childrenOf(server.pid as number)[0] ?? 0;
            if (!killed) throw new Error("no worker to kill");
            killAt = performance.now();
            process.kill(killed, "SIGKILL");
            console.log(`killed worker ${killed} with SIGKILL at ${((killAt - started) / 1000).toFixed(1)} s`);
          },
        });
        shared.destroy();
        for (const l of load) l.agent?.destroy();
        printOpenLoop(mode, learners, r);
        const samples: Sample[] = [...r.log.gets, ...r.log.posts];
        const failed = samples.filter((s) => !s.ok);
        const inFlight = (s: Sample) => s.at < killAt && s.at + s.ms >= killAt;
        // Sent after the kill on a kept-alive socket whose worker had died before the generator
        // noticed the closed connection: the request never reached a server.
        const stale = (s: Sample) => s.at >= killAt && s.failure?.reused === true;
        const failedInFlight = failed.filter(inFlight);
        const failedStale = failed.filter(stale);
        const other = failed.filter((s) => !inFlight(s) && !stale(s));
        const codes = [...new Set(failed.map((s) => s.failure?.code ?? `HTTP error`))].join(", ");
        const lastError = Math.max(...failed.map((s) => s.at + s.ms - killAt), 0);
        const acks = r.log.acks ?? [];
        const { missing, repeats, unexplained } = await readBack(
          env.DATABASE_URL as string,
          acks,
          r.log.posted ?? new Map(),
        );
        const after = childrenOf(server.pid as number);
        console.log(
          `requests in flight at the kill: ${samples.filter(inFlight).length}; errors: ${failed.length}${failed.length ? ` (${codes})` : ""}: ${failedInFlight.length} in flight at the kill, ${failedStale.length} sent after it on a kept-alive socket of the dead worker, ${other.length} other${failed.length ? `; the last error ${ms(lastError)} after the kill` : ""}`,
        );
        console.log(
          `acknowledged answers: ${acks.length}, read back from quiz_attempts after the run: ${missing} missing; ${repeats} were repeats of a question the learner had posted more than once (recorded once, the first), ${unexplained} recorded with other answers though posted once; workers afterwards: ${after.join(", ")}`,
        );
      } finally {
        await stopServer(server);
      }
    },
  );
}
