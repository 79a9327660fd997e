import crypto from "node:crypto";
import { type AnswerResult, ErrorCode } from "@carecampus/contract";
import { lt, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { answerRequests } from "../db/schema";
import { AppError } from "../errors";

/*
 * Idempotency-Keys of the answer POST (issue 30): a phone that lost its connection sends the same
 * answer again with the same key, perhaps to another server. The first request's answer is kept
 * with the key, in the transaction that records the answer and under the learner's quiz lock
 * (quiz.ts), so a second request with the key (at once or later, on any server) waits for the
 * first and gets its answer, and nothing is recorded twice.
 */

/** How long a key's answer is kept: a phone offline over a long weekend still gets it. */
export const ANSWER_KEY_DAYS = 7;

/** What an answer request asks, as the key's fingerprint: the question's path, practice and the chosen answers. */
export function answerRequestHash(
  path: { topicId: number; trainingId: number; questionnaireId: number; questionId: number },
  practice: boolean,
  answerIds: readonly number[],
): string {
  const chosen = [...new Set(answerIds)].sort((a, b) => a - b);
  const asked = [path.topicId, path.trainingId, path.questionnaireId, path.questionId, practice, chosen];
  return crypto.createHash("sha256").update(JSON.stringify(asked)).digest("base64url");
}

/** An answer kept with its key: the request's hash and the reply. */
export interface KeptAnswer {
  request: string;
  response: AnswerResult;
}

/**
 * The answer kept for the learner's key as one JSON value ({request, response} or null), for the
 * statement the answer's transaction reads the learner's progress with (progress.ts learnerRows,
 * under the learner's quiz lock): no statement of its own on the answer's path.
 */
export function keptAnswerJson(userId: number | Placeholder, key: string | Placeholder): SQL {
  return sql`(select json_build_object('request', r."request", 'response', r."response")
    from "answer_requests" r where r."user_id" = ${userId} and r."key" = ${key})`;
}

/** The kept reply for a request with the same key; 409 (1105) when the key was sent with another request. */
export function replayedAnswer(kept: KeptAnswer, request: string): AnswerResult {
  if (kept.request !== request) {
    throw new AppError(ErrorCode.conflict, "This Idempotency-Key was sent with another answer: use a new key");
  }
  // An answer kept before answers named their language was one in German.
  return { ...kept.response, lang: kept.response.lang ?? "de" };
}

/** Keeps the answer for the learner's key, in the transaction that recorded it. */
export async function keepAnswer(
  tx: Tx,
  userId: number,
  key: string,
  request: string,
  response: AnswerResult,
): Promise<void> {
  await tx
    .insert(answerRequests)
    .values({ userId, key, request, response: response as unknown as Record<string, unknown> })
    .onConflictDoNothing();
}

/** For the answer-key job: deletes the answers of keys older than ANSWER_KEY_DAYS. */
export async function pruneAnswerRequests(db: Db, now: Date): Promise<{ pruned: number }> {
  const before = new Date(now.getTime() - ANSWER_KEY_DAYS * 86_400_000);
  const gone = await db
    .delete(answerRequests)
    .where(lt(answerRequests.createdAt, before))
    .returning({ key: answerRequests.key });
  return { pruned: gone.length };
}
