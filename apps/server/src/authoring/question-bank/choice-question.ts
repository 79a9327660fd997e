import {
  escapeHtml,
  firstWords,
  hasFormatting,
  htmlToText,
  markdownToHtml,
  mediaReferences,
  plainToHtml,
  tidyText,
} from "./text";
import type {
  EmbeddedImage,
  ParsedQuestion,
  QuestionBankProblem,
  SourcePosition,
  UnsupportedItem,
  UnsupportedReason,
} from "./types";

/*
 * One mapping from a choice question, as both formats describe it (answers with Moodle's
 * fractions in percent), to a CareCampus question: the place where the grading decisions live.
 *
 * - Single choice: the answer with 100 % is the right one. Answers with partial marks
 *   (0 < fraction < 100) become wrong answers ("weighted-partial-credit"); no 100 % answer is
 *   "no-right-answer"; several 100 % answers (Moodle accepts either) are "several-right-answers".
 * - Multiple choice: every answer with a positive fraction is right, every answer with 0 or a
 *   negative fraction is wrong. CareCampus grades all-or-nothing (all right answers chosen, no
 *   wrong one), which is what full marks mean in Moodle; Moodle's partial marks and penalties
 *   have no counterpart and need no report of their own.
 * - True/false: single choice with the source's two answers ("true", "false"): no translation,
 *   "true-false-labels" tells the editor to relabel them.
 * - Feedback: the general feedback is the explanation; feedback for particular answers is
 *   appended to it as a list "answer: feedback" ("answer-feedback-merged"), since CareCampus shows
 *   one explanation whatever was chosen. Moodle's combined feedback (correct / partially correct /
 *   incorrect) is dropped: CareCampus says right or wrong itself.
 */

export type SourceFormat = "html" | "moodle-auto" | "plain" | "markdown";

export interface SourceText {
  value: string;
  format: SourceFormat;
}

export interface SourceAnswer {
  text: SourceText;
  /** Moodle's fraction in percent: 100 full marks, 0 none, negative a penalty. */
  fraction: number;
  feedback: SourceText | null;
}

export interface SourceChoiceQuestion {
  name: string | null;
  /** Moodle's type name: multichoice, truefalse, multichoiceset. */
  sourceType: string;
  position: SourcePosition;
  category: string | null;
  single: boolean;
  trueFalse: boolean;
  text: SourceText;
  answers: SourceAnswer[];
  generalFeedback: SourceText | null;
  hints: SourceText[];
  /** Files embedded in the source (Moodle `<file name=…>`), with their content (base64) where given. */
  embeddedFiles: { name: string; base64: string | null }[];
}

export type ChoiceOutcome =
  | { question: ParsedQuestion; problems: QuestionBankProblem[] }
  | { unsupported: UnsupportedItem; problems: QuestionBankProblem[] };

/** Full marks, allowing for Moodle's 7-decimal fractions ("100.0000000", "99.9999990"). */
const FULL = 99.999;

export function toPlainText(t: SourceText): string {
  switch (t.format) {
    case "html":
      return htmlToText(t.value);
    case "moodle-auto":
      return htmlToText(t.value.replace(/\n/g, "<br>"));
    case "markdown":
      return htmlToText(markdownToHtml(t.value));
    case "plain":
      return tidyText(t.value);
  }
}

export function toHtml(t: SourceText): string {
  switch (t.format) {
    case "html":
      return t.value.trim();
    case "moodle-auto":
      return t.value.trim().replace(/\n/g, "<br>");
    case "markdown":
      return markdownToHtml(t.value).trim();
    case "plain":
      return plainToHtml(t.value);
  }
}

/** The markup of a text as it would be shown (for finding media and formatting). */
function markupOf(t: SourceText): string {
  if (t.format === "plain") return "";
  return t.format === "markdown" ? markdownToHtml(t.value) : t.value;
}

function isBlank(t: SourceText | null): boolean {
  return t === null || t.value.trim() === "";
}

/** Whether a text shows anything: words, or media that are not imported. */
function showsSomething(t: SourceText | null): boolean {
  if (t === null || isBlank(t)) return false;
  return toPlainText(t) !== "" || mediaReferences(markupOf(t)).length > 0;
}

/** How the import names a question: its name in the source, else the first words of its text. */
export function displayName(name: string | null, text: SourceText | string | null): string {
  if (name?.trim()) return name.trim();
  if (text === null) return "";
  return firstWords(typeof text === "string" ? text : toPlainText(text));
}

export function mapChoiceQuestion(src: SourceChoiceQuestion): ChoiceOutcome {
  const text = toPlainText(src.text);
  const name = displayName(src.name, text);
  const problems: QuestionBankProblem[] = [];
  const problem = (code: QuestionBankProblem["code"], detail: string | null = null) =>
    problems.push({ code, position: src.position, name, detail });
  const unsupported = (reason: UnsupportedReason): ChoiceOutcome => ({
    unsupported: { name, sourceType: src.sourceType, reason, position: src.position, detail: null },
    problems: [],
  });

  if (text === "") return unsupported("no-text");
  // Empty answer slots (some tools write them) are no answers; an answer that only shows an image is.
  const answers = src.answers.filter((a) => !isBlank(a.text));
  if (answers.length === 0) return unsupported("no-answers");
  const answerTexts = answers.map((a) => toPlainText(a.text));
  if (answerTexts.some((t) => t === "")) return unsupported("empty-answer");

  let right: boolean[];
  if (src.single) {
    right = answers.map((a) => a.fraction >= FULL);
    const count = right.filter(Boolean).length;
    if (count === 0) return unsupported("no-right-answer");
    if (count > 1) return unsupported("several-right-answers");
    if (answers.some((a) => a.fraction > 0 && a.fraction < FULL)) problem("weighted-partial-credit");
  } else {
    right = answers.map((a) => a.fraction > 0);
    if (!right.some(Boolean)) return unsupported("no-right-answer");
  }

  const parts: string[] = [];
  if (showsSomething(src.generalFeedback) && src.generalFeedback) parts.push(toHtml(src.generalFeedback));
  const answerFeedback = answers.flatMap((a, i) =>
    showsSomething(a.feedback) && a.feedback
      ? [`<li><em>${escapeHtml(answerTexts[i] ?? "")}</em>: ${toHtml(a.feedback)}</li>`]
      : [],
  );
  if (answerFeedback.length) {
    parts.push(`<ul>${answerFeedback.join("")}</ul>`);
    problem("answer-feedback-merged");
  }
  const hints = src.hints.map(toPlainText).filter((h) => h !== "");

  const shown = [src.text, ...answers.map((a) => a.text)];
  if (shown.some((t) => t.format !== "plain" && hasFormatting(markupOf(t)))) problem("formatting-removed");
  if (src.trueFalse) problem("true-false-labels");
  const image = pictureOf(src, answers);
  const everything = [src.text, src.generalFeedback, ...src.hints, ...answers.flatMap((a) => [a.text, a.feedback])];
  const media = new Set(src.embeddedFiles.map((f) => f.name));
  for (const t of everything) if (t) for (const m of mediaReferences(markupOf(t))) media.add(m);
  if (image) media.delete(image.name);
  // An image by web address is never fetched: the import reads the file and nothing else.
  const remote = [...media].filter((m) => /^https?:\/\//i.test(m));
  const other = [...media].filter((m) => !remote.includes(m));
  if (remote.length) problem("remote-media-not-fetched", remote.join(", "));
  if (other.length) problem("media-not-imported", other.join(", "));

  return {
    question: {
      sourceName: src.name?.trim() || null,
      kind: src.single ? "single" : "multiple",
      text,
      answers: answers.map((_a, i) => ({ text: answerTexts[i] ?? "", right: right[i] ?? false })),
      explanation: parts.length ? parts.join("\n") : null,
      hint: hints.length ? [...new Set(hints)].join("\n") : null,
      category: src.category,
      image,
      position: src.position,
    },
    problems,
  };
}

/**
 * The question's picture: the first embedded file the question text shows, else the first one
 * the general or an answer's feedback shows. (CareCampus has one medium per question; answers and
 * hints show text only.)
 */
function pictureOf(src: SourceChoiceQuestion, answers: SourceAnswer[]): EmbeddedImage | null {
  const files = new Map<string, string>();
  for (const f of src.embeddedFiles) if (f.base64 && !files.has(f.name)) files.set(f.name, f.base64);
  const inText = mediaReferences(markupOf(src.text));
  const inFeedback = [src.generalFeedback, ...answers.map((a) => a.feedback)].flatMap((t) =>
    t ? mediaReferences(markupOf(t)) : [],
  );
  const name = [...inText, ...inFeedback].find((n) => files.has(n));
  if (!name) return null;
  return { name, base64: files.get(name) ?? "", shownIn: inText.includes(name) ? "text" : "explanation" };
}
