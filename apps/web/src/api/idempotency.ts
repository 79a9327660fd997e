import { IDEMPOTENCY_KEY_HEADER } from "@carecampus/contract";

/**
 * Idempotency-Keys for the answer POST (issue 30): one key per answer, sent again with every
 * resend of that answer, so that an answer whose reply was lost (a dropped connection) is
 * recorded once and its resend gets the same reply. From getRandomValues, which works on an
 * installation served over plain http too (randomUUID needs a secure context).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One quiz's answer keys (answerKeys). */
export interface AnswerKeys {
  /** The header of this answer: the same while the same answer is sent again, new for another. */
  headers(question: { id: number; round: number }, chosen: readonly number[]): Record<string, string>;
  /** The key an answer kept on the device was sent with: its resend keeps it. */
  remember(question: { id: number; round: number }, chosen: readonly number[], key: string): void;
}

/**
 * The keys of one quiz's answers: the same key while the same answer (question, round, chosen
 * ids) is sent again, a new one for another answer.
 */
export function answerKeys(): AnswerKeys {
  let last: { answer: string; key: string } | null = null;
  const answerOf = (question: { id: number; round: number }, chosen: readonly number[]) =>
    JSON.stringify([question.id, question.round, [...chosen].sort((a, b) => a - b)]);
  return {
    headers(question, chosen) {
      const answer = answerOf(question, chosen);
      if (last?.answer !== answer) last = { answer, key: newIdempotencyKey() };
      return { [IDEMPOTENCY_KEY_HEADER]: last.key };
    },
    remember(question, chosen, key) {
      last = { answer: answerOf(question, chosen), key };
    },
  };
}
