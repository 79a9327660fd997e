import {
  type AuthoringQuestionInput,
  ErrorCode,
  type QuestionBankImportBody,
  type QuestionBankImported,
  type QuestionBankPreview,
  questionProblems,
} from "@carecampus/contract";
import type { Actor } from "../access/policy";
import { sanitizeExplanation } from "../content/service";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { parseQuestionBank, QuestionBankError } from "./question-bank";
import { addQuestions, getQuestionnaire } from "./service";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/**
 * What a question bank holds, judged by the contract's rules of valid content: the questions
 * that will be imported (as they will be stored) and everything that will not, named.
 */
export function previewBank(body: QuestionBankImportBody): QuestionBankPreview {
  let parsed: ReturnType<typeof parseQuestionBank>;
  try {
    parsed = parseQuestionBank(body.format, body.text);
  } catch (err) {
    if (err instanceof QuestionBankError) {
      const where = err.line !== null ? ` (line ${err.line})` : "";
      throw new AppError(ErrorCode.validation, `${err.code}: ${err.message}${where}`);
    }
    throw err;
  }
  const preview: QuestionBankPreview = {
    questions: [],
    skipped: parsed.unsupported.map((u) => ({
      number: u.position.number,
      name: u.name,
      source_type: u.sourceType,
      reason: u.reason,
      detail: u.detail,
    })),
    notes: parsed.problems.map((p) => ({ code: p.code, number: p.position?.number ?? null, detail: p.detail })),
  };
  for (const q of parsed.questions) {
    const answers = q.answers.map((a) => ({ text: a.text, correct: a.right }));
    // A question without feedback gets an explanation naming the right answers (the quiz always shows one).
    const given = q.explanation ? sanitizeExplanation(q.explanation) : "";
    const explanation =
      given !== ""
        ? given
        : `<p>${answers
            .filter((a) => a.correct)
            .map((a) => escapeHtml(a.text))
            .join("<br>")}</p>`;
    const candidate = { type: q.kind, text: q.text, answers, explanation, hint: q.hint };
    const broken = questionProblems(candidate)[0];
    if (broken) {
      preview.skipped.push({
        number: q.position.number,
        name: q.sourceName ?? q.text.slice(0, 80),
        source_type: q.kind,
        reason: broken.code,
        detail: broken.message,
      });
      continue;
    }
    preview.questions.push({
      number: q.position.number,
      ...candidate,
      hint: q.hint && q.hint.trim() !== "" ? q.hint.trim() : null,
      explanation_generated: given === "",
    });
  }
  preview.skipped.sort((a, b) => a.number - b.number);
  return preview;
}

/** The preview for a questionnaire the actor may change (checked before anything is parsed). */
export async function previewBankFor(
  clock: DbClock,
  actor: Actor,
  questionnaireId: number,
  body: QuestionBankImportBody,
): Promise<QuestionBankPreview> {
  const questionnaire = await getQuestionnaire(clock, actor, questionnaireId);
  if (!questionnaire.editable) throw new AppError(ErrorCode.forbidden, "Your role may not edit this questionnaire");
  return previewBank(body);
}

/** Imports what the preview of the same file lists, at the end of the questionnaire, all or nothing. */
export async function importBank(
  clock: DbClock,
  actor: Actor,
  questionnaireId: number,
  body: QuestionBankImportBody,
): Promise<QuestionBankImported> {
  const current = await getQuestionnaire(clock, actor, questionnaireId);
  if (!current.editable) throw new AppError(ErrorCode.forbidden, "Your role may not edit this questionnaire");
  const preview = previewBank(body);
  if (preview.questions.length === 0) {
    throw new AppError(ErrorCode.validation, "Nothing in the file can be imported");
  }
  const inputs: AuthoringQuestionInput[] = preview.questions.map((q) => ({
    type: q.type,
    text: q.text,
    answers: q.answers,
    explanation: q.explanation,
    hint: q.hint,
    media: null,
  }));
  const questionnaire = await addQuestions(clock, actor, questionnaireId, inputs);
  return { questionnaire, imported: inputs.length };
}
