import { eq } from "drizzle-orm";
import type { Db } from "../../apps/server/src/db/client";
import { answers } from "../../apps/server/src/db/schema";
import type { Dataset } from "./dataset";
import type { Result } from "./run";

/** questionId → the ids of its right answers, read before the server starts. */
export type AnswerKey = Map<number, number[]>;

export async function rightAnswers(db: Db): Promise<AnswerKey> {
  const rows = await db
    .select({ q: answers.questionId, id: answers.id })
    .from(answers)
    .where(eq(answers.correct, true));
  const key: AnswerKey = new Map();
  for (const r of rows) key.set(r.q, [...(key.get(r.q) ?? []), r.id]);
  return key;
}

/** The p-th percentile of some latencies. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/**
 * The quiz's write path: EMPLOYEES users at once, each answering the first questionnaire of
 * the first topic question by question (GET next question, POST the right answer). Every
 * POST is a real recording, not a repeat. Reports the POST latency and rate.
 */
export async function benchAnswers(
  base: string,
  dataset: Dataset,
  key: AnswerKey,
  password: string,
  concurrency = 10,
): Promise<Result> {
  const users = dataset.employees.slice(0, 100);
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const worker = async (logins: string[]) => {
    for (const login of logins) {
      const res = await fetch(`${base}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ login, password }),
      });
      const { token } = (await res.json()) as { token: string };
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const topics = (await (await fetch(`${base}/api/progress/topics`, { headers })).json()) as {
        id: number;
        trainings: number[];
      }[];
      const topic = topics[0];
      const training = topic?.trainings[0];
      if (!topic || training === undefined) return;
      const path = `${base}/api/progress/topics/${topic.id}/trainings/${training}/questionnaires`;
      const detail = (await (await fetch(path, { headers })).json()) as { questionnaires: { id: number }[] };
      const qn = detail.questionnaires[0]?.id;
      for (let i = 0; i < 12; i++) {
        const next = (await (await fetch(`${path}/${qn}/questions`, { headers })).json()) as {
          question: { id: number } | null;
        };
        if (!next.question) break;
        const t0 = performance.now();
        const post = await fetch(`${path}/${qn}/questions/${next.question.id}/answers`, {
          method: "POST",
          headers,
          body: JSON.stringify(key.get(next.question.id) ?? []),
        });
        await post.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!post.ok) errors += 1;
      }
    }
  };
  const chunks = Array.from({ length: concurrency }, (_, i) => users.filter((_, j) => j % concurrency === i));
  await Promise.all(chunks.map(worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    name: "POST …/answers (quiz)",
    rps: latencies.length / seconds,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    errors,
  };
}
