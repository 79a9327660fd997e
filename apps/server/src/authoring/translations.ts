import {
  ErrorCode,
  type QuestionTranslationDraft,
  type QuestionTranslationSuggestion,
  type QuestionTranslations,
  QuestionTranslationWrite,
  type TranslationStatus,
} from "@carecampus/contract";
import { and, asc, eq } from "drizzle-orm";
import type { Actor } from "../access/policy";
import { sanitizeExplanation } from "../content/service";
import { sourceHash } from "../content/translations";
import type { Db, Tx } from "../db/client";
import { answers, questions, questionTranslations } from "../db/schema";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import type { MachineTranslator } from "./machine-translation";
import { assertEdit, loadQuestionnaire, questionnaireOf, requiredExplanation, writeOn } from "./service";

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

type TranslationValues = Omit<typeof questionTranslations.$inferInsert, "questionId" | "lang">;

/** Writes a question's translation into `lang`, a new one or over the one there is. */
export async function storeTranslation(tx: Tx, questionId: number, lang: string, values: TranslationValues) {
  await tx
    .insert(questionTranslations)
    .values({ questionId, lang, ...values })
    .onConflictDoUpdate({ target: [questionTranslations.questionId, questionTranslations.lang], set: values });
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
  return writeOn(
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
      await storeTranslation(tx, questionId, lang, values);
      return listed(tx, questionId, contentLanguages);
    },
    () => ({
      kind: "content.updated",
      data: { item: "question-translation", id: questionId, lang, status: body.status },
    }),
  );
}

/** A translation's texts, as stored or as the editor holds them. */
type TranslationTexts = Pick<typeof questionTranslations.$inferSelect, "text" | "answers" | "explanation" | "hint">;

/** The saved texts with the draft's non-empty fields over them (the editor's unsaved work). */
function withDraft(saved: TranslationTexts | undefined, draft: QuestionTranslationDraft): TranslationTexts {
  const given = (s: string | null | undefined): s is string => (s ?? "").trim() !== "";
  const answers = new Map((saved?.answers ?? []).map((a) => [a.id, a.text]));
  for (const a of draft.answers ?? []) if (given(a.text)) answers.set(a.id, a.text.trim());
  return {
    text: given(draft.text) ? draft.text.trim() : (saved?.text ?? ""),
    answers: [...answers].map(([id, text]) => ({ id, text })),
    explanation: given(draft.explanation) ? sanitizeExplanation(draft.explanation) : (saved?.explanation ?? ""),
    hint: given(draft.hint) ? draft.hint.trim() : (saved?.hint ?? null),
  };
}

/** A translation's fields as stored, by the segment ids of the translation files: text, a<id>, explanation, hint. */
function emptyFields(source: Awaited<ReturnType<typeof german>>, row: TranslationTexts): string[] {
  const blank = (s: string | null | undefined) => (s ?? "").trim() === "";
  const required = [
    ...(blank(row.text) ? ["text"] : []),
    ...source.answers.filter((a) => blank(row.answers.find((b) => b.id === a.id)?.text)).map((a) => `a${a.id}`),
    ...(blank(row.explanation) ? ["explanation"] : []),
  ];
  // The hint is optional: a translation whole without one is not made a machine's for it.
  return [...required, ...(required.length > 0 && source.hint !== null && blank(row.hint) ? ["hint"] : [])];
}

/**
 * A machine's suggestion for a question's translation (issue 31): only the fields still empty
 * are filled, from the German as it is now, and the translation gets the status `machine`, which
 * learners never see until a person reviewed and published it. The service is called outside
 * the transaction; a German changed meanwhile is 409.
 */
export async function suggestQuestionTranslation(
  clock: DbClock,
  actor: Actor,
  questionId: number,
  lang: string,
  contentLanguages: string[],
  translator: MachineTranslator | null,
  draft: QuestionTranslationDraft = {},
): Promise<QuestionTranslationSuggestion> {
  assertContentLanguage(lang, contentLanguages);
  const { questionnaireId } = await questionnaireOf(clock.db, questionId);
  assertEdit(actor, await loadQuestionnaire(clock.db, questionnaireId));
  if (!translator) {
    throw new AppError(
      ErrorCode.machineTranslationOff,
      "No machine translation is configured for this installation (MACHINE_TRANSLATION_URL)",
    );
  }
  const stored = async (db: Db | Tx) =>
    (
      await db
        .select()
        .from(questionTranslations)
        .where(and(eq(questionTranslations.questionId, questionId), eq(questionTranslations.lang, lang)))
    )[0];
  const source = await german(clock.db, questionId);
  // The translation as the editor holds it: the saved one, with what the draft gives over it.
  const empty = emptyFields(source, withDraft(await stored(clock.db), draft));
  if (empty.length === 0) return { filled: [], ...(await listed(clock.db, questionId, contentLanguages)) };
  const plain = empty.filter((f) => f !== "explanation");
  const sourceText = (f: string) =>
    f === "text"
      ? source.text
      : f === "hint"
        ? (source.hint ?? "")
        : (source.answers.find((a) => `a${a.id}` === f)?.text ?? "");
  const [texts, [html]] = await Promise.all([
    translator.translate(plain.map(sourceText), lang, "text"),
    empty.includes("explanation") ? translator.translate([source.explanation], lang, "html") : Promise.resolve([""]),
  ]);
  const suggested = new Map(plain.map((f, i) => [f, (texts[i] ?? "").trim()]));
  if (empty.includes("explanation")) suggested.set("explanation", html ?? "");
  return writeOn(
    clock,
    actor,
    questionnaireId,
    async (tx) => {
      const now = await german(tx, questionId);
      if (sourceHash(now) !== sourceHash(source)) {
        throw new AppError(ErrorCode.conflict, "The German text changed while the suggestion was made: try again", 409);
      }
      const saved = await stored(tx);
      const row = withDraft(saved, draft);
      // Filled meanwhile by a person, or held in the editor: theirs stays.
      const take = (f: string, kept: string | null | undefined) =>
        (kept ?? "").trim() !== "" ? (kept as string) : (suggested.get(f) ?? "");
      const values = {
        text: take("text", row.text),
        answers: source.answers.map((a) => ({
          id: a.id,
          text: take(`a${a.id}`, row.answers.find((b) => b.id === a.id)?.text),
        })),
        explanation:
          row.explanation.trim() !== "" ? row.explanation : sanitizeExplanation(suggested.get("explanation") ?? ""),
        hint: source.hint === null ? null : take("hint", row.hint) || null,
        status: "machine" as const,
        // A translation of an earlier German stays marked so: its texts a person wrote were not revised.
        sourceHash: saved ? saved.sourceHash : sourceHash(source),
        updatedAt: clock.now(),
        updatedBy: actor.id,
      };
      // What the service answered must be a translation a person could have saved.
      const { text, answers, explanation, hint, status } = values;
      const valid = QuestionTranslationWrite.safeParse({ text, answers, explanation, hint, status });
      if (!valid.success || values.explanation === "") {
        const issue = valid.success ? undefined : valid.error.issues[0];
        const why = issue ? `${issue.path.join(".")}: ${issue.message}` : "explanation: nothing is left once sanitised";
        throw new AppError(
          ErrorCode.machineTranslationUnavailable,
          `The machine translation service answered a text no translation may have (${why})`,
        );
      }
      await storeTranslation(tx, questionId, lang, values);
      return { filled: empty, ...(await listed(tx, questionId, contentLanguages)) };
    },
    (out) => ({
      kind: "content.updated",
      data: { item: "question-translation", id: questionId, lang, status: "machine", filled: out.filled },
    }),
  );
}
