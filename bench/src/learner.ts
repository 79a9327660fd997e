import http from "node:http";

/*
 * A simulated learner of the quiz-load scenario and its requests: shared by the main load
 * generator (quiz-load.ts), the independent probe (probe.ts) and the kill run (quiz-kill.ts).
 */

export interface Learner {
  login: string;
  /** The user id (the token's subject). */
  id: number;
  token: string;
  /** Questionnaire paths (…/questionnaires/{q}) to go through, and where the learner is. */
  paths: string[];
  at: number;
  /** questionId → its right answers, once an explanation showed them. */
  known: Map<number, number[]>;
  /** The learner's own connection (one socket, as a phone has), or undefined: the shared pool. */
  agent?: http.Agent;
}

export interface Sample {
  /** When the request was sent, ms on performance.now(). */
  at: number;
  ms: number;
  ok: boolean;
  /** A request that got no answer: its error code, and whether it went on a kept-alive socket used before. */
  failure?: { code: string; reused: boolean };
}

/** An answer the server acknowledged (200): it must be in quiz_attempts afterwards. */
export interface Ack {
  userId: number;
  questionnaireId: number;
  questionId: number;
  answerIds: number[];
}

/** The user id in a token (its subject), without checking it: the bench's own tokens. */
export function tokenSubject(token: string): number {
  const payload = token.split(".")[1] ?? "";
  return Number((JSON.parse(Buffer.from(payload, "base64url").toString()) as { sub: string }).sub);
}

/**
 * How long a request may wait for the server without a byte (BENCH_REQUEST_TIMEOUT_S, 60): then it
 * fails as a phone's would. A connection the cluster's primary accepted for a worker that was killed
 * in that moment is never answered nor closed (quiz-kill.ts); without this a run would wait forever.
 */
const REQUEST_TIMEOUT_MS = Number(process.env.BENCH_REQUEST_TIMEOUT_S ?? 60) * 1000;

/** One socket per learner: a phone's own keep-alive connection. */
export const ownConnection = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

export function send(
  agent: http.Agent,
  method: "GET" | "POST",
  url: string,
  token: string | null,
  body?: string,
): Promise<{ status: number; json: () => unknown; serverMs: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
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
          // The server's own share (Server-Timing, app.ts): the rest is the network and the client.
          const timing = /dur=([0-9.]+)/.exec(String(res.headers["server-timing"] ?? ""));
          resolve({
            status: res.statusCode ?? 0,
            json: () => JSON.parse(text),
            serverMs: Number(timing?.[1] ?? Number.NaN),
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => reject(Object.assign(err, { reused: req.reusedSocket })));
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(Object.assign(new Error("no answer"), { code: "TIMEOUT" })));
    req.end(body);
  });
}

/** A learner's request got its answer: 200, or the refusal of a locked questionnaire (403, 404). */
function answered(status: number): boolean {
  return status === 200 || status === 403 || status === 404;
}

function failureOf(err: unknown): { code: string; reused: boolean } {
  const e = err as { code?: string; message?: string; reused?: boolean };
  return { code: e.code ?? e.message ?? "error", reused: e.reused === true };
}

type NextBody = { question: { id: number; answers: { id: number }[] } | null };

export interface CycleLog {
  gets: Sample[];
  posts: Sample[];
  moved: number;
  /** Acknowledged answers, when the run checks them afterwards. */
  acks?: Ack[];
  /** With acks: how often each learner posted each question ("user:questionnaire:question"). */
  posted?: Map<string, number>;
}

/** One cycle of a learner: the next question, then an answer. */
export async function cycle(learner: Learner, shared: http.Agent, log: CycleLog): Promise<void> {
  const agent = learner.agent ?? shared;
  const path = learner.paths[learner.at % learner.paths.length] as string;
  let t0 = performance.now();
  let body: NextBody | null = null;
  try {
    const next = await send(agent, "GET", `${path}/questions`, learner.token);
    if (next.status === 200) body = next.json() as NextBody;
    // A locked or disabled questionnaire answers 4xx: the learner moves on, as a person would.
    log.gets.push({ at: t0, ms: performance.now() - t0, ok: answered(next.status) });
  } catch (err) {
    log.gets.push({ at: t0, ms: performance.now() - t0, ok: false, failure: failureOf(err) });
    return;
  }
  const question = body?.question;
  if (!question) {
    learner.at++;
    log.moved++;
    return;
  }
  const choice = learner.known.get(question.id) ?? [
    (question.answers[Math.floor(Math.random() * question.answers.length)] as { id: number }).id,
  ];
  const key = `${learner.id}:${path.split("/").pop()}:${question.id}`;
  log.posted?.set(key, (log.posted.get(key) ?? 0) + 1);
  t0 = performance.now();
  try {
    const res = await send(
      agent,
      "POST",
      `${path}/questions/${question.id}/answers`,
      learner.token,
      JSON.stringify(choice),
    );
    log.posts.push({ at: t0, ms: performance.now() - t0, ok: answered(res.status) });
    if (res.status === 200) {
      const result = res.json() as { answers_correct: number[]; finished: unknown };
      log.acks?.push({
        userId: learner.id,
        questionnaireId: Number(path.split("/").pop()),
        questionId: question.id,
        answerIds: [...new Set(choice)],
      });
      learner.known.set(question.id, result.answers_correct);
      if (result.finished) {
        learner.at++;
        log.moved++;
      }
    }
  } catch (err) {
    log.posts.push({ at: t0, ms: performance.now() - t0, ok: false, failure: failureOf(err) });
  }
}

/** The p-th percentile of some latencies. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

export const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n.toFixed(0)} ms`);

/** req/s, p50, p95, p99, max and errors of some samples, as one table line. */
export function line(name: string, samples: Sample[], seconds: number): string {
  const xs = samples.map((s) => s.ms);
  const errors = samples.filter((s) => !s.ok).length;
  return `${name.padEnd(14)}${(samples.length / seconds).toFixed(0).padStart(8)}${ms(percentile(xs, 50)).padStart(10)}${ms(percentile(xs, 95)).padStart(10)}${ms(percentile(xs, 99)).padStart(10)}${ms(Math.max(0, ...xs)).padStart(10)}${String(errors).padStart(8)}`;
}

export const header = () =>
  `${"".padEnd(14)}${"req/s".padStart(8)}${"p50".padStart(10)}${"p95".padStart(10)}${"p99".padStart(10)}${"max".padStart(10)}${"errors".padStart(8)}`;
