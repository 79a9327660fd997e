import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { asc, eq } from "drizzle-orm";
import { DEMO_CONTENT } from "../../apps/server/src/bootstrap";
import { loadPackage } from "../../apps/server/src/content/package";
import { importPackage } from "../../apps/server/src/content/service";
import type { Db } from "../../apps/server/src/db/client";
import { facilities, questions } from "../../apps/server/src/db/schema";
import { createFloorTable } from "../../apps/server/src/learning/floor";
import { hashPassword } from "../../apps/server/src/security/passwords";
import { insertUser } from "../../apps/server/src/users/service";
import { BENCH_PASSWORD } from "./dataset";
import { withFreshDatabase } from "./fresh";
import {
  type CycleLog,
  cycle,
  header,
  type Learner,
  line,
  ms,
  ownConnection,
  percentile,
  type Sample,
  send,
  tokenSubject,
} from "./learner";
import type { ProbeConfig, ProbeResult } from "./probe";
import { type AnswerKey, rightAnswers } from "./quiz";
import { startServer, stopServer } from "./server";

/*
 * The quiz-load scenario of issue 'Learning at scale': N learners, created through the import
 * API and logged in beforehand, each GETs their next question and POSTs an answer every 5 s
 * (open loop: a cycle starts on time whether or not the last one has ended) for BENCH_QUIZ_SECONDS.
 * A learner answers at random first and with the right answers once an explanation showed them,
 * and moves on when a questionnaire is finished or locked.
 *
 * It runs once per connection mode (BENCH_QUIZ_MODES, default both): `pooled`, the learners'
 * requests over BENCH_QUIZ_SOCKETS (256) kept-alive sockets as behind a pooling proxy, and
 * `per-learner`, one kept-alive socket per learner as phones connect directly. Beside the main
 * generator an independent probe (probe.ts, a process of its own with PROBE_LEARNERS learners of
 * its own on their own connections, one question a second each, the next only after the last
 * answer) measures what a client that is not itself loaded sees; the main generator's own
 * event-loop delay and CPU are printed too.
 *
 * Then a closed loop: the answer POST against the floor route of the same server
 * (learning/floor.ts: the learner's lock, one INSERT, COMMIT, over the same pool), each from ten
 * connections as fast as they get answers, and the ratio.
 */

const SECONDS = Number(process.env.BENCH_QUIZ_SECONDS ?? 60);
/**
 * Seconds of the first mode's load run before anything is measured (BENCH_QUIZ_WARMUP_S): the
 * server's code paths optimised and every learner's first request (the session's user read from
 * the database) behind it: the first minute is slower (README, scale). Its figures are printed too.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_QUIZ_WARMUP_S ?? 20);
const MODES = (process.env.BENCH_QUIZ_MODES ?? "pooled,per-learner").split(",").filter(Boolean);
const PERIOD_MS = 5_000;
const FACILITY = "Quiz-Haus";
const SUPERUSER = "quiz-superchris";
/** The probe's learners, one question a second each. */
export const PROBE_LEARNERS = 10;
const PROBE_PERIOD_MS = 1_000;
/**
 * The closed loop's learners: fresh ones, so that every answer they give is recorded. Each has the
 * content's questions to answer (132 on 2026-12-07): 200 learners give 26 400, enough for 10 s at
 * 2 600 answers a second. 40 ran out at 841 a second on a fast day, and a connection that runs out
 * lowers the rate measured (BENCH_CLOSED_LEARNERS).
 */
const CLOSED_LEARNERS = Number(process.env.BENCH_CLOSED_LEARNERS ?? 200);
const CLOSED_CONNECTIONS = 10;
const CLOSED_SECONDS = Number(process.env.BENCH_CLOSED_SECONDS ?? 10);
const CLOSED_SLICES = 5;

/** What the closed loop answers: every questionnaire's live questions in order, and the right answers. */
export interface QuizContent {
  questions: Map<number, number[]>;
  key: AnswerKey;
}

/** Fills a fresh database: the demo content, the facility, a superuser, the floor's scratch table. */
export async function prepareQuiz(db: Db, content?: QuizContent): Promise<void> {
  await importPackage(db, loadPackage(DEMO_CONTENT));
  await db.insert(facilities).values({ name: FACILITY });
  await insertUser(
    db,
    {
      login: SUPERUSER,
      name: "Quiz",
      surname: "Bench",
      password: BENCH_PASSWORD,
      roles: ["superchris"],
      facilityId: null,
    },
    await hashPassword(BENCH_PASSWORD),
  );
  await createFloorTable(db);
  if (!content) return;
  const rows = await db
    .select({ id: questions.id, qn: questions.questionnaireId })
    .from(questions)
    .where(eq(questions.retired, false))
    .orderBy(asc(questions.questionnaireId), asc(questions.position), asc(questions.id));
  for (const r of rows) content.questions.set(r.qn, [...(content.questions.get(r.qn) ?? []), r.id]);
  for (const [q, ids] of await rightAnswers(db)) content.key.set(q, ids);
}

async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

async function login(base: string, name: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: name, password }),
  });
  if (!res.ok) throw new Error(`login ${name}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** The learners, imported through POST /api/auth/admin/users and logged in, in login order. */
export async function makeLearners(base: string, count: number): Promise<Learner[]> {
  const su = await login(base, SUPERUSER, BENCH_PASSWORD);
  const logins = Array.from({ length: count }, (_, i) => `quiz-${i + 1}`);
  for (let i = 0; i < logins.length; i += 500) {
    const rows = logins.slice(i, i + 500).map((l, j) => ({
      surname: `Lernende ${i + j + 1}`,
      name: "Quiz",
      login: l,
      facility: FACILITY,
      activities: [],
      qualifications: [],
      password: `${l}-Pass-1234!`,
    }));
    const res = await fetch(`${base}/api/auth/admin/users?deleteNotIncludedUsers=false`, {
      method: "POST",
      headers: { authorization: `Bearer ${su}`, "content-type": "application/json" },
      body: JSON.stringify(rows),
    });
    if (!res.ok) throw new Error(`import failed: ${res.status} ${(await res.text()).slice(0, 300)}`);
  }
  // Every learner's questionnaires: the same for all (one facility), read once.
  const first = await login(base, logins[0] as string, `${logins[0]}-Pass-1234!`);
  const headers = { authorization: `Bearer ${first}` };
  const topics = (await (await fetch(`${base}/api/progress/topics`, { headers })).json()) as { id: number }[];
  const paths: string[] = [];
  for (const topic of topics) {
    const trainings = (await (
      await fetch(`${base}/api/progress/topics/${topic.id}/trainings`, { headers })
    ).json()) as {
      trainings: { id: number; passive: boolean }[];
    };
    for (const training of trainings.trainings.filter((t) => !t.passive)) {
      const p = `${base}/api/progress/topics/${topic.id}/trainings/${training.id}/questionnaires`;
      const detail = (await (await fetch(p, { headers })).json()) as { questionnaires: { id: number }[] };
      for (const q of detail.questionnaires) paths.push(`${p}/${q.id}`);
    }
  }
  const byLogin = new Map<string, Learner>();
  await pool(logins, 8, async (l) => {
    const token = await login(base, l, `${l}-Pass-1234!`);
    const at = Math.floor(Math.random() * paths.length);
    byLogin.set(l, { login: l, id: tokenSubject(token), token, paths, at, known: new Map() });
  });
  return logins.map((l) => byLogin.get(l) as Learner);
}

export interface Stats {
  queries: number;
  cpuMicros: number;
}

export function statsReader(): { onLine: (line: string) => void; read: (child: ChildProcess) => Promise<Stats> } {
  let waiting: ((s: Stats) => void) | null = null;
  return {
    onLine(text) {
      if (text.startsWith("QUERY_STATS ") && waiting) {
        waiting(JSON.parse(text.slice("QUERY_STATS ".length)) as Stats);
        waiting = null;
      }
    },
    read(child) {
      return new Promise<Stats>((resolve) => {
        waiting = resolve;
        child.kill("SIGUSR2");
      });
    },
  };
}

/** The probe (probe.ts) in a process of its own, started and waiting for `start()`. */
async function startProbe(
  learners: Learner[],
  seconds: number,
): Promise<{ start: () => void; result: Promise<ProbeResult> }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cc-probe-")), "probe.json");
  const config: ProbeConfig = {
    learners: learners.map(({ login, id, token, paths, at }) => ({ login, id, token, paths, at })),
    seconds,
    periodMs: PROBE_PERIOD_MS,
  };
  fs.writeFileSync(file, JSON.stringify(config));
  const child = spawn(process.execPath, ["--import", "tsx", new URL("./probe.ts", import.meta.url).pathname, file], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  let ready: () => void = () => {};
  const isReady = new Promise<void>((r) => {
    ready = r;
  });
  const result = new Promise<ProbeResult>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready\n")) ready();
      const m = /^PROBE (.*)$/m.exec(out);
      if (m) resolve(JSON.parse(m[1] as string) as ProbeResult);
    });
    child.once("exit", (code) => {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      reject(new Error(`the probe ended (${code}) without a result`));
    });
  });
  result.catch(() => {});
  await isReady;
  return { start: () => child.stdin?.write("start\n"), result };
}

export interface OpenLoopResult {
  log: CycleLog;
  seconds: number;
  started: number;
  probe: ProbeResult;
  /** The main generator's own event-loop delay (p99, ms) and CPU (ms per second). */
  loopDelayP99: number;
  cpuPerSecond: number;
  server: { cpuMsPerRequest: number; queriesPerRequest: number };
}

/**
 * The open loop: every learner a cycle every 5 s for `seconds`, the probe beside it. `during`
 * runs once the load has started (the kill run kills a worker there).
 */
export async function openLoop(
  server: ChildProcess,
  stats: ReturnType<typeof statsReader>,
  learners: Learner[],
  probeLearners: Learner[],
  shared: http.Agent,
  seconds: number,
  options: { acks?: boolean; during?: (started: number) => Promise<void> } = {},
): Promise<OpenLoopResult> {
  const probe = await startProbe(probeLearners, seconds);
  const log: CycleLog = { gets: [], posts: [], moved: 0, ...(options.acks && { acks: [], posted: new Map() }) };
  const before = await stats.read(server);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = process.cpuUsage();
  probe.start();
  const started = performance.now();
  const running: Promise<void>[] = [];
  for (const learner of learners) {
    const offset = Math.random() * PERIOD_MS;
    for (let at = offset; at < seconds * 1000; at += PERIOD_MS) {
      setTimeout(() => running.push(cycle(learner, shared, log)), at);
    }
  }
  const during = options.during?.(started);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  await Promise.all(running);
  await during;
  const elapsed = (performance.now() - started) / 1000;
  loop.disable();
  const used = process.cpuUsage(cpu);
  const after = await stats.read(server);
  const requests = log.gets.length + log.posts.length;
  return {
    log,
    seconds: elapsed,
    started,
    probe: await probe.result,
    loopDelayP99: loop.percentile(99) / 1e6,
    cpuPerSecond: (used.user + used.system) / 1000 / elapsed,
    server: {
      cpuMsPerRequest: (after.cpuMicros - before.cpuMicros) / 1000 / requests,
      queriesPerRequest: (after.queries - before.queries) / requests,
    },
  };
}

export function printOpenLoop(mode: string, learners: number, r: OpenLoopResult): void {
  const probe = (xs: { ms: number; ok: boolean }[]): Sample[] => xs.map((x) => ({ at: 0, ...x }));
  console.log(`${mode}: ${learners} learners, ${r.seconds.toFixed(0)} s`);
  console.log(header());
  console.log(line("GET", r.log.gets, r.seconds));
  console.log(line("POST", r.log.posts, r.seconds));
  console.log(line("probe GET", probe(r.probe.gets), r.seconds));
  console.log(line("probe POST", probe(r.probe.posts), r.seconds));
  // A worker killed in the run (quiz-kill.ts) takes its counts with it: no per-request figures then.
  const server =
    r.server.cpuMsPerRequest > 0
      ? `server: ${r.server.cpuMsPerRequest.toFixed(2)} ms CPU and ${r.server.queriesPerRequest.toFixed(1)} queries per request; `
      : "";
  console.log(
    `offered ${((2 * learners) / (PERIOD_MS / 1000)).toFixed(0)} req/s; ${server}${r.log.moved} moves to the next questionnaire`,
  );
  console.log(
    `main generator: event-loop delay p99 ${ms(r.loopDelayP99)}, CPU ${r.cpuPerSecond.toFixed(0)} ms/s; probe: event-loop delay p99 ${ms(r.probe.loopDelayP99)}, CPU ${r.probe.cpuMs.toFixed(0)} ms, ${r.probe.skipped} cycles skipped while waiting`,
  );
}

interface ClosedItem {
  learner: Learner;
  /** The questionnaire's count the answer returned (set as the closed loop goes). */
  count?: number;
  path: string;
  questionnaireId: number;
  questionId: number;
  body: string;
}

/** A learner's questions in order: each questionnaire's, answered right, one after the other. */
function itemsOf(learner: Learner, content: QuizContent): ClosedItem[] {
  return learner.paths.flatMap((p) => {
    const questionnaireId = Number(p.split("/").pop());
    return (content.questions.get(questionnaireId) ?? []).map((questionId) => ({
      learner,
      path: p,
      questionnaireId,
      questionId,
      body: JSON.stringify(content.key.get(questionId) ?? []),
    }));
  });
}

/** What one kind of request of the closed loop got, over its slices. */
interface Tally {
  latencies: number[];
  /** The server's own share of each request (its Server-Timing). */
  inServer: number[];
  seconds: number;
  errors: number;
  /** Answers the server recorded (the questionnaire's count went up): each answer POST should. */
  recorded: number;
  cpuMs: number;
  queries: number;
}

const tally = (): Tally => ({ latencies: [], inServer: [], seconds: 0, errors: 0, recorded: 0, cpuMs: 0, queries: 0 });

type Request = (
  item: ClosedItem,
  agent: http.Agent,
) => Promise<{ status: number; json: () => unknown; serverMs: number }>;

/**
 * One slice of the closed loop: every connection sends its next request as soon as it has the
 * last one's answer, for `seconds`. A connection goes on where its cursor stands; false when a
 * connection ran out of questions.
 */
async function slice(
  queues: ClosedItem[][],
  cursors: number[],
  agents: http.Agent[],
  seconds: number,
  request: Request,
  into: Tally,
  isAnswer: boolean,
): Promise<boolean> {
  let enough = true;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    queues.map(async (queue, i) => {
      while (performance.now() < end) {
        const item = queue[cursors[i] as number];
        if (!item) {
          enough = false;
          break;
        }
        cursors[i] = (cursors[i] as number) + 1;
        const t0 = performance.now();
        try {
          const res = await request(item, agents[i] as http.Agent);
          into.latencies.push(performance.now() - t0);
          into.inServer.push(res.serverMs);
          if (res.status !== 200) into.errors++;
          // A recorded right answer adds one to the questionnaire's count: the first of a
          // questionnaire makes it 1, every next one the one before plus one.
          else if (isAnswer) {
            const before = queue[(cursors[i] as number) - 2];
            const expected = before?.questionnaireId === item.questionnaireId ? (before.count ?? -1) + 1 : 1;
            item.count = (res.json() as { count: number }).count;
            if (item.count === expected) into.recorded++;
          }
        } catch {
          into.errors++;
        }
      }
    }),
  );
  into.seconds += (performance.now() - started) / 1000;
  return enough;
}

/**
 * The answer POST against its floor, closed loop. Ten connections, each with learners of its own
 * who answer every question of every questionnaire in order, rightly: every answer is recorded
 * (one INSERT), as the floor's every request is. The floor's requests carry the same learners,
 * questionnaires, questions and bodies. The two alternate in slices of a second or two, so that
 * other work on the machine weighs on both alike; each slice's server CPU and queries are read
 * (QUERY_STATS) before and after it.
 */
export async function closedLoop(
  base: string,
  learners: Learner[],
  content: QuizContent,
  server: ChildProcess,
  stats: ReturnType<typeof statsReader>,
): Promise<void> {
  const queues = Array.from({ length: CLOSED_CONNECTIONS }, (_, i) =>
    learners.filter((_, j) => j % CLOSED_CONNECTIONS === i).flatMap((l) => itemsOf(l, content)),
  );
  const agents = queues.map(() => ownConnection());
  const answer: Request = (item, agent) =>
    send(agent, "POST", `${item.path}/questions/${item.questionId}/answers`, item.learner.token, item.body);
  const floor: Request = (item, agent) =>
    send(
      agent,
      "POST",
      `${base}/bench/floor/${item.learner.id}/${item.questionnaireId}/${item.questionId}`,
      null,
      item.body,
    );
  const answerAt = queues.map(() => 0);
  const floorAt = queues.map(() => 0);
  // The floor route is cold (the answer POST ran all along): a second of warm-up, not counted.
  await slice(queues, floorAt, agents, 1, floor, tally(), false);
  const a = tally();
  const f = tally();
  const measured = async (request: Request, cursors: number[], into: Tally, isAnswer: boolean) => {
    const before = await stats.read(server);
    const enough = await slice(queues, cursors, agents, CLOSED_SECONDS / CLOSED_SLICES, request, into, isAnswer);
    const after = await stats.read(server);
    into.cpuMs += (after.cpuMicros - before.cpuMicros) / 1000;
    into.queries += after.queries - before.queries;
    return enough;
  };
  let enough = true;
  for (let i = 0; i < CLOSED_SLICES; i++) {
    enough = (await measured(answer, answerAt, a, true)) && enough;
    await measured(floor, floorAt, f, false);
  }
  for (const agent of agents) agent.destroy();
  const rate = (t: Tally) => t.latencies.length / t.seconds;
  const describe = (t: Tally) => {
    const n = Math.max(1, t.latencies.length);
    return `${rate(t).toFixed(0)} req/s (p50 ${ms(percentile(t.latencies, 50))} of which ${percentile(t.inServer, 50).toFixed(1)} ms in the server, p99 ${ms(percentile(t.latencies, 99))}, ${t.errors} errors; server ${(t.cpuMs / n).toFixed(2)} ms CPU and ${(t.queries / n).toFixed(2)} queries per request)`;
  };
  const available = queues.reduce((n, q) => n + q.length, 0);
  console.log(
    `closed loop, ${CLOSED_CONNECTIONS} connections, ${CLOSED_SECONDS} s each in ${CLOSED_SLICES} alternating slices (${available} answers available):\n` +
      `  answer POST ${describe(a)}; ${a.recorded} of ${a.latencies.length} recorded${enough ? "" : "; some connections ran out of questions"}\n` +
      `  floor (lock, INSERT, COMMIT) ${describe(f)}\n` +
      `  answer POST at ${((100 * rate(a)) / rate(f)).toFixed(1)} % of the floor`,
  );
}

/** The environment of a quiz-load server: QUERY_STATS for the counts, the floor route on. */
export const QUIZ_SERVER_ENV = {
  QUERY_STATS: "true",
  BENCH_FLOOR_ROUTE: "true",
  NOTIFICATION_JOB: "false",
  LOGIN_IP_MAX_FAILURES: "1000000",
  // The learners log in once and never refresh: a token must outlive the preparation (2 000
  // logins take minutes here), the load and its drain.
  TOKEN_LIFETIME_SECONDS: "86400",
};

/** The scenario on one database: `learners` at once. */
export async function quizLoad(label: string, url: string | undefined, port: number, learners: number): Promise<void> {
  const content: QuizContent = { questions: new Map(), key: new Map() };
  await withFreshDatabase(
    url,
    "quiz",
    (db) => prepareQuiz(db, content),
    async (env) => {
      const stats = statsReader();
      const server = await startServer(port, { ...env, ...QUIZ_SERVER_ENV }, { onStdout: stats.onLine });
      try {
        const base = `http://127.0.0.1:${port}`;
        const prepared = performance.now();
        const all = await makeLearners(base, learners + PROBE_LEARNERS + CLOSED_LEARNERS);
        const load = all.slice(0, learners);
        const probeLearners = all.slice(learners, learners + PROBE_LEARNERS);
        const closedLearners = all.slice(learners + PROBE_LEARNERS);
        console.log(
          `\n${label}: ${learners} learners imported and logged in (${((performance.now() - prepared) / 1000).toFixed(0)} s); ${SECONDS} s of load per mode, one question every 5 s each; the probe: ${PROBE_LEARNERS} learners, one question a second each`,
        );
        const sockets = Number(process.env.BENCH_QUIZ_SOCKETS ?? 256);
        const run = async (mode: string, seconds: number, title: string) => {
          const shared = new http.Agent({ keepAlive: true, maxSockets: sockets });
          for (const l of load) l.agent = mode === "per-learner" ? ownConnection() : undefined;
          printOpenLoop(title, learners, await openLoop(server, stats, load, probeLearners, shared, seconds));
          shared.destroy();
          for (const l of load) l.agent?.destroy();
        };
        const first = MODES[0];
        if (first && WARMUP_SECONDS > 0) await run(first, WARMUP_SECONDS, `warm-up, not counted (${first})`);
        for (const mode of MODES) {
          await run(
            mode,
            SECONDS,
            mode === "per-learner" ? "per-learner connections" : `pooled over ${sockets} sockets`,
          );
        }
        await closedLoop(base, closedLearners, content, server, stats);
      } finally {
        await stopServer(server);
      }
    },
  );
}
