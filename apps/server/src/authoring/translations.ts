import {
  ErrorCode,
  type QuestionTranslations,
  type QuestionTranslationWrite,
  type TranslationStatus,
} from "@carecampus/contract";
import { and, asc, eq } from "drizzle-orm";
import type { Actor } from "../access/policy";
import { sourceHash } from "../content/translations";
import type { Db, Tx } from "../db/client";
import { answers, questions, questionTranslations } from "../db/schema";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { assertEdit, loadQuestionnaire, questionnaireOf, requiredExplanation, write } from "./service";

/*
 * A question's translations (issue 31), written by those who may edit the question: beside the
 * German original, by the question's id, each with its status and the hash of the German it
 * translates (content/translations.ts). Learners get one only when it is published and current
 * (learning/content-cache.ts).
 */

/** The live question in German: its text, live answers, explanation and hint. */
async function german(db: Db | Tx, questionId: number) {
  const [q] = await db
    .select({ id: questions.id, text: questions.text, explanation: questions.explanation, hint: questions.hint })
    .from(questions)
    .where(eq(questions.id, questionId));
  if (!q) throw new AppError(ErrorCode.questionNotFound, "Question not found");
  const live = await db
    .select({ id: answers.id, text: answers.text })
    .from(answers)
    .where(and(eq(answers.questionId, questionId), eq(answers.retired, false)))
    .orderBy(asc(answers.position), asc(answers.id));
  return { ...q, answers: live };
}

async function listed(db: Db | Tx, questionId: number, contentLanguages: string[]): Promise<QuestionTranslations> {
  const source = await german(db, questionId);
  const hash = sourceHash(source);
  const rows = await db
    .select()
    .from(questionTranslations)
    .where(eq(questionTranslations.questionId, questionId))
    .orderBy(asc(questionTranslations.lang));
  return {
    question_id: questionId,
    content_languages: contentLanguages,
    translations: rows.map((r) => ({
      lang: r.lang,
      status: r.status as TranslationStatus,
      outdated: r.sourceHash !== hash,
      text: r.text,
      answers: r.answers,
      explanation: r.explanation,
      hint: r.hint,
      updated_at: r.updatedAt.toISOString(),
    })),
  };
}

/** 400 unless `lang` is one of the installation's content languages (CONTENT_LANGUAGES). */
export function assertContentLanguage(lang: string, contentLanguages: string[]): void {
  if (!contentLanguages.includes(lang)) {
    throw new AppError(
      ErrorCode.validation,
      `"${lang}" is not a content language of this installation (CONTENT_LANGUAGES: ${contentLanguages.join(", ") || "none"})`,
    );
  }
}

export async function questionTranslationsFor(
  clock: DbClock,
  actor: Actor,
  questionId: number,
  contentLanguages: string[],
): Promise<QuestionTranslations> {
  const { questionnaireId } = await questionnaireOf(clock.db, questionId);
  assertEdit(actor, await loadQuestionnaire(clock.db, questionnaireId));
  return listed(clock.db, questionId, contentLanguages);
}

/**
 * Writes the translation of a live question into a content language, for the German as it is now:
 * every live answer exactly once by its id; the explanation sanitised as the German one is.
 */
export async function saveQuestionTranslation(
  clock: DbClock,
  actor: Actor,
  questionId: number,
  lang: string,
  body: QuestionTranslationWrite,
  contentLanguages: string[],
): Promise<QuestionTranslations> {
  assertContentLanguage(lang, contentLanguages);
  const explanation = requiredExplanation(body.explanation);
  const { questionnaireId } = await questionnaireOf(clock.db, questionId);
  const { result } = await write(
    clock,
    actor,
    questionnaireId,
    async (tx) => {
      const source = await german(tx, questionId);
      const given = body.answers.map((a) => a.id);
      const live = source.answers.map((a) => a.id);
      if (
        given.length !== live.length ||
        new Set(given).size !== given.length ||
        !live.every((id) => given.includes(id))
      ) {
        throw new AppError(
          ErrorCode.validation,
          `answers: give each of the question's answers exactly once, by its id (${live.join(", ")})`,
        );
      }
      const hint = body.hint && body.hint.trim() !== "" ? body.hint : null;
      const values = {
        text: body.text,
        answers: body.answers.map((a) => ({ id: a.id, text: a.text })),
        explanation,
        hint,
        status: body.status,
        sourceHash: sourceHash(source),
        updatedAt: clock.now(),
        updatedBy: actor.id,
      };
      await tx
        .insert(questionTranslations)
        .values({ questionId, lang, ...values })
        .onConflictDoUpdate({ target: [questionTranslations.questionId, questionTranslations.lang], set: values });
      return listed(tx, questionId, contentLanguages);
    },
    () => ({
      kind: "content.updated",
      data: { item: "question-translation", id: questionId, lang, status: body.status },
    }),
  );
  return result;
}
