import crypto from "node:crypto";
import type { ContentOrigin } from "@carecampus/contract";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { answers, questions, quizAttempts } from "../db/schema";

/*
 * Question versions. A learner's attempt names the question and the chosen answers by id, so
 * what an attempt means is fixed by those rows. Changing the text, the type or the answers
 * (their texts, right flags or order) of a question someone has answered would change that
 * meaning: such an edit supersedes the row (kept, retired, with its answers) and writes the
 * next version under the same questionnaire and key. Progress counts questions by
 * questionnaire and key (learning/progress.ts), so a right answer to an earlier version still
 * counts: nobody who answered is reset. An edit of a question nobody answered, or one that
 * only touches explanation, hint, media or position, is made in place.
 */

export interface QuestionValues {
  type: string;
  text: string;
  /** Already sanitised. */
  explanation: string;
  hint: string | null;
  mediaId: number | null;
  position: number;
  origin: ContentOrigin;
  answers: { text: string; correct: boolean }[];
}

export interface SavedQuestion {
  id: number;
  version: number;
  /** A new version was written (the previous one was answered and its meaning changed). */
  versioned: boolean;
  created: boolean;
}

/** The current (not superseded) row of a question, retired or not. */
export async function currentQuestion(tx: Db | Tx, questionnaireId: number, key: string) {
  const [row] = await tx
    .select()
    .from(questions)
    .where(and(eq(questions.questionnaireId, questionnaireId), eq(questions.key, key), isNull(questions.supersededAt)));
  return row;
}

async function liveAnswers(tx: Db | Tx, questionId: number) {
  return tx
    .select()
    .from(answers)
    .where(and(eq(answers.questionId, questionId), eq(answers.retired, false)))
    .orderBy(asc(answers.position), asc(answers.id));
}

async function insertAnswers(tx: Db | Tx, questionId: number, list: QuestionValues["answers"]) {
  if (list.length === 0) return;
  await tx
    .insert(answers)
    .values(list.map((a, position) => ({ questionId, key: answerKey(), text: a.text, correct: a.correct, position })));
}

/** Answer keys only need to be unique within their question version; they carry no order. */
function answerKey(): string {
  return crypto.randomBytes(6).toString("hex");
}

async function answered(tx: Db | Tx, questionId: number): Promise<boolean> {
  const rows = await tx
    .select({ one: sql<number>`1` })
    .from(quizAttempts)
    .where(eq(quizAttempts.questionId, questionId))
    .limit(1);
  return rows.length > 0;
}

type QuestionRow = typeof questions.$inferSelect;
type AnswerRow = typeof answers.$inferSelect;

/** A questionnaire's current questions, their live answers and which were answered, read at once. */
export interface QuestionnaireQuestions {
  current: Map<string, QuestionRow>;
  answers: Map<number, AnswerRow[]>;
  answered: Set<number>;
}

/** Reads what saveQuestion compares against for a whole questionnaire in three queries (the importer). */
export async function readQuestionnaireQuestions(
  tx: Db | Tx,
  questionnaireId: number,
): Promise<QuestionnaireQuestions> {
  const rows = await tx
    .select()
    .from(questions)
    .where(and(eq(questions.questionnaireId, questionnaireId), isNull(questions.supersededAt)));
  const ids = rows.map((r) => r.id);
  const answerRows = ids.length
    ? await tx
        .select()
        .from(answers)
        .where(and(inArray(answers.questionId, ids), eq(answers.retired, false)))
        .orderBy(asc(answers.position), asc(answers.id))
    : [];
  const answeredRows = ids.length
    ? await tx
        .selectDistinct({ questionId: quizAttempts.questionId })
        .from(quizAttempts)
        .where(inArray(quizAttempts.questionId, ids))
    : [];
  const byQuestion = new Map<number, AnswerRow[]>();
  for (const a of answerRows) byQuestion.set(a.questionId, [...(byQuestion.get(a.questionId) ?? []), a]);
  return {
    current: new Map(rows.map((r) => [r.key, r])),
    answers: byQuestion,
    answered: new Set(answeredRows.map((r) => r.questionId)),
  };
}

/**
 * Writes a question (new, in place, or as a new version; see above) with its answers. The
 * caller holds the transaction and bumps the content generation. `known` is what
 * readQuestionnaireQuestions read for the questionnaire (else read here).
 */
export async function saveQuestion(
  tx: Tx,
  questionnaireId: number,
  key: string,
  values: QuestionValues,
  now: Date,
  known?: QuestionnaireQuestions,
): Promise<SavedQuestion> {
  const { answers: answerValues, ...fields } = values;
  const current = known ? known.current.get(key) : await currentQuestion(tx, questionnaireId, key);
  if (!current) {
    const [row] = await tx
      .insert(questions)
      .values({ questionnaireId, key, ...fields, version: 1, retired: false })
      .returning({ id: questions.id });
    const id = (row as { id: number }).id;
    await insertAnswers(tx, id, answerValues);
    return { id, version: 1, versioned: false, created: true };
  }
  const before = known ? (known.answers.get(current.id) ?? []) : await liveAnswers(tx, current.id);
  const sameAnswers =
    before.length === answerValues.length &&
    before.every((a, i) => a.text === answerValues[i]?.text && a.correct === answerValues[i]?.correct);
  const sameMeaning = current.type === values.type && current.text === values.text && sameAnswers;

  const wasAnswered = known ? known.answered.has(current.id) : await answered(tx, current.id);
  if (!sameMeaning && wasAnswered) {
    await tx.update(questions).set({ supersededAt: now, retired: true }).where(eq(questions.id, current.id));
    const version = current.version + 1;
    const [row] = await tx
      .insert(questions)
      .values({ questionnaireId, key, ...fields, version, retired: false })
      .returning({ id: questions.id });
    const id = (row as { id: number }).id;
    await insertAnswers(tx, id, answerValues);
    return { id, version, versioned: true, created: false };
  }

  const unchanged =
    sameAnswers &&
    !current.retired &&
    (Object.keys(fields) as (keyof typeof fields)[]).every((k) => current[k] === fields[k]);
  if (unchanged) return { id: current.id, version: current.version, versioned: false, created: false };
  await tx
    .update(questions)
    .set({ ...fields, retired: false })
    .where(eq(questions.id, current.id));
  if (!sameAnswers) {
    // Nobody answered this version (or the answers are the same): the rows are rewritten.
    await tx
      .update(answers)
      .set({ retired: true })
      .where(and(eq(answers.questionId, current.id), eq(answers.retired, false)));
    await insertAnswers(tx, current.id, answerValues);
  }
  return { id: current.id, version: current.version, versioned: false, created: false };
}
