import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import autocannon from "autocannon";
import { DEMO_CONTENT } from "../../apps/server/src/bootstrap";
import { loadPackage } from "../../apps/server/src/content/package";
import { importPackage } from "../../apps/server/src/content/service";
import type { Db } from "../../apps/server/src/db/client";
import { facilities } from "../../apps/server/src/db/schema";
import { hashPassword } from "../../apps/server/src/security/passwords";
import { insertUser } from "../../apps/server/src/users/service";
import { BENCH_PASSWORD } from "./dataset";
import { withFreshDatabase } from "./fresh";
import { percentile } from "./quiz";
import { startServer, stopServer } from "./server";

/*
 * The quiz-load scenario of issue 'Learning at scale': N learners, created through the import
 * API and logged in beforehand, each GETs their next question and POSTs an answer every 5 s
 * (open loop: a cycle starts on time whether or not the last one has ended) for BENCH_QUIZ_SECONDS.
 * A learner answers at random first and with the right answers once an explanation showed them,
 * and moves on when a questionnaire is finished or locked.
 */

const SECONDS = Number(process.env.BENCH_QUIZ_SECONDS ?? 60);
const PERIOD_MS = 5_000;
const FACILITY = "Quiz-Haus";
const SUPERUSER = "quiz-superchris";

interface Learner {
  login: string;
  token: string;
  /** Questionnaire paths (…/questionnaires/{q}) to go through, and where the learner is. */
  paths: string[];
  at: number;
  /** questionId → its right answers, once an explanation showed them. */
  known: Map<number, number[]>;
}

interface Sample {
  ms: number;
  ok: boolean;
}

async function prepare(db: Db): Promise<void> {
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

/** The learners, imported through POST /api/auth/admin/users and logged in. */
async function makeLearners(base: string, count: number): Promise<Learner[]> {
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
  const learners: Learner[] = [];
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
      const path = `${base}/api/progress/topics/${topic.id}/trainings/${training.id}/questionnaires`;
      const detail = (await (await fetch(path, { headers })).json()) as { questionnaires: { id: number }[] };
      for (const q of detail.questionnaires) paths.push(`${path}/${q.id}`);
    }
  }
  await pool(logins, 8, async (l) => {
    const token = await login(base, l, `${l}-Pass-1234!`);
    learners.push({ login: l, token, paths, at: Math.floor(Math.random() * paths.length), known: new Map() });
  });
  return learners;
}

/**
 * The learners' connections: at most SOCKETS kept-alive sockets, as behind a load balancer. A
 * cycle that finds them all busy waits for one, and that wait counts in its latency (measured
 * from when the cycle was due), so the loop stays open.
 */
const SOCKETS = Number(process.env.BENCH_QUIZ_SOCKETS ?? 256);
const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS });

function send(
  method: "GET" | "POST",
  url: string,
  token: string,
  body?: string,
): Promise<{ status: number; json: () => unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(text) });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A learner's request got its answer: 200, or the refusal of a locked questionnaire (403, 404). */
function answered(status: number): boolean {
  return status === 200 || status === 403 || status === 404;
}

type NextBody = { question: { id: number; answers: { id: number }[] } | null };

/** One cycle of a learner: the next question, then an answer. */
async function cycle(learner: Learner, gets: Sample[], posts: Sample[], counts: { moved: number }): Promise<void> {
  const path = learner.paths[learner.at % learner.paths.length] as string;
  let t0 = performance.now();
  let body: NextBody | null = null;
  try {
    const next = await send("GET", `${path}/questions`, learner.token);
    if (next.status === 200) body = next.json() as NextBody;
    // A locked or disabled questionnaire answers 4xx: the learner moves on, as a person would.
    gets.push({ ms: performance.now() - t0, ok: answered(next.status) });
  } catch {
    gets.push({ ms: performance.now() - t0, ok: false });
    return;
  }
  const question = body?.question;
  if (!question) {
    learner.at++;
    counts.moved++;
    return;
  }
  const choice = learner.known.get(question.id) ?? [
    (question.answers[Math.floor(Math.random() * question.answers.length)] as { id: number }).id,
  ];
  t0 = performance.now();
  try {
    const res = await send("POST", `${path}/questions/${question.id}/answers`, learner.token, JSON.stringify(choice));
    posts.push({ ms: performance.now() - t0, ok: answered(res.status) });
    if (res.status === 200) {
      const result = res.json() as { answers_correct: number[]; finished: unknown };
      learner.known.set(question.id, result.answers_correct);
      if (result.finished) {
        learner.at++;
        counts.moved++;
      }
    }
  } catch {
    posts.push({ ms: performance.now() - t0, ok: false });
  }
}

interface Stats {
  queries: number;
  cpuMicros: number;
}

function statsReader(): { onLine: (line: string) => void; read: (child: ChildProcess) => Promise<Stats> } {
  let waiting: ((s: Stats) => void) | null = null;
  return {
    onLine(line) {
      if (line.startsWith("QUERY_STATS ") && waiting) {
        waiting(JSON.parse(line.slice("QUERY_STATS ".length)) as Stats);
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

function line(name: string, samples: Sample[], seconds: number): string {
  const ms = samples.map((s) => s.ms);
  const errors = samples.filter((s) => !s.ok).length;
  const f = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n.toFixed(0)} ms`);
  return `${name.padEnd(6)}${(samples.length / seconds).toFixed(0).padStart(8)}${f(percentile(ms, 50)).padStart(10)}${f(percentile(ms, 95)).padStart(10)}${f(percentile(ms, 99)).padStart(10)}${f(Math.max(0, ...ms)).padStart(10)}${String(errors).padStart(8)}`;
}

/** A bare Fastify JSON route in its own process: the ceiling the answer POST is compared with. */
async function bareFastify(port: number): Promise<ChildProcess> {
  const script = `import Fastify from "fastify";
const app = Fastify();
app.post("/bare", async (request) => ({ ok: true, got: request.body }));
await app.listen({ port: ${port}, host: "127.0.0.1" });
console.log("ready");`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: new URL("../../apps/server/", import.meta.url).pathname,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  return child;
}

async function closedLoop(learners: Learner[], barePort: number): Promise<void> {
  // Ten learners, one per connection, each posting the same answer again and again: the whole
  // write path (a repeat records nothing new), ten at once as many learners are. One learner alone
  // would measure the wait for that learner's own lock (their answers are recorded one at a time).
  const CONNECTIONS = 10;
  const found: { learner: Learner; path: string; question: { id: number; answers: { id: number }[] } }[] = [];
  for (const learner of learners) {
    if (found.length === CONNECTIONS) break;
    const path = learner.paths[learner.at % learner.paths.length] as string;
    const next = (await (
      await fetch(`${path}/questions`, { headers: { authorization: `Bearer ${learner.token}` } })
    ).json()) as { question: { id: number; answers: { id: number }[] } | null };
    if (next.question) found.push({ learner, path, question: next.question });
  }
  if (found.length === 0) {
    console.log("closed loop: no learner has a question left to answer");
    return;
  }
  const connections = found.length;
  const requestOf = ({ learner, path, question }: (typeof found)[number]) => ({
    method: "POST" as const,
    path: new URL(`${path}/questions/${question.id}/answers`).pathname,
    headers: { authorization: `Bearer ${learner.token}`, "content-type": "application/json" },
    body: JSON.stringify([question.answers[0]?.id]),
  });
  let connection = 0;
  const first = found[0] as (typeof found)[number];
  const body = requestOf(first).body;
  const answer = await autocannon({
    url: new URL(first.path).origin,
    ...requestOf(first),
    connections,
    duration: 10,
    // Each connection its own learner, for the whole run (setRequests: every request, not the next one).
    setupClient: (client) =>
      client.setRequests([requestOf(found[connection++ % connections] as (typeof found)[number])]),
  });
  const bare = await bareFastify(barePort);
  try {
    const ceiling = await autocannon({
      url: `http://127.0.0.1:${barePort}/bare`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      connections,
      duration: 10,
    });
    console.log(
      `closed loop, ${connections} learners on ${connections} connections, 10 s: answer POST ${answer.requests.average.toFixed(0)} req/s (p99 ${answer.latency.p99} ms, ${answer.errors + answer.non2xx} errors), bare Fastify route ${ceiling.requests.average.toFixed(0)} req/s: ${((100 * answer.requests.average) / ceiling.requests.average).toFixed(1)} %`,
    );
  } finally {
    bare.kill("SIGTERM");
  }
}

/** The scenario on one database: `learners` at once. */
export async function quizLoad(label: string, url: string | undefined, port: number, learners: number): Promise<void> {
  await withFreshDatabase(url, "quiz", prepare, async (env) => {
    const stats = statsReader();
    const server = await startServer(
      port,
      {
        ...env,
        QUERY_STATS: "true",
        NOTIFICATION_JOB: "false",
        LOGIN_IP_MAX_FAILURES: "1000000",
        // The learners log in once and never refresh: a token must outlive the preparation (2 000
        // logins take minutes here), the load and its drain.
        TOKEN_LIFETIME_SECONDS: "86400",
      },
      { onStdout: stats.onLine },
    );
    try {
      const base = `http://127.0.0.1:${port}`;
      const prepared = performance.now();
      const all = await makeLearners(base, learners);
      console.log(
        `\n${label}: ${learners} learners imported and logged in (${((performance.now() - prepared) / 1000).toFixed(0)} s); ${SECONDS} s of load, one question every 5 s each`,
      );
      const gets: Sample[] = [];
      const posts: Sample[] = [];
      const counts = { moved: 0 };
      const before = await stats.read(server);
      const started = performance.now();
      const running: Promise<void>[] = [];
      for (const learner of all) {
        const offset = Math.random() * PERIOD_MS;
        for (let at = offset; at < SECONDS * 1000; at += PERIOD_MS) {
          setTimeout(() => running.push(cycle(learner, gets, posts, counts)), at);
        }
      }
      await new Promise((r) => setTimeout(r, SECONDS * 1000));
      await Promise.all(running);
      const seconds = (performance.now() - started) / 1000;
      const after = await stats.read(server);
      const requests = gets.length + posts.length;
      console.log(
        `${"".padEnd(6)}${"req/s".padStart(8)}${"p50".padStart(10)}${"p95".padStart(10)}${"p99".padStart(10)}${"max".padStart(10)}${"errors".padStart(8)}`,
      );
      console.log(line("GET", gets, seconds));
      console.log(line("POST", posts, seconds));
      console.log(
        `offered ${((2 * all.length) / (PERIOD_MS / 1000)).toFixed(0)} req/s; server: ${((after.cpuMicros - before.cpuMicros) / 1000 / requests).toFixed(2)} ms CPU and ${((after.queries - before.queries) / requests).toFixed(1)} queries per request; ${counts.moved} moves to the next questionnaire`,
      );
      await closedLoop(all, port + 50);
    } finally {
      await stopServer(server);
    }
  });
}
