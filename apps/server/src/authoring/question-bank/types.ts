/*
 * What reading a question bank gives: the questions CareCampus can take, the items it cannot (with
 * a reason code the import screen translates), and problems (something was lost or changed on an
 * imported question, or about the file as a whole). Codes are stable strings, never sentences.
 */

export type QuestionBankFormat = "moodle-xml" | "gift";
export const QUESTION_BANK_FORMATS: readonly QuestionBankFormat[] = ["moodle-xml", "gift"];

/**
 * The largest text read, in characters (UTF-16 code units). A UTF-8 upload of at most this many
 * bytes always fits, so the import endpoint's body limit can be the same number. Moodle exports
 * with embedded images are the large ones.
 */
export const MAX_QUESTION_BANK_LENGTH = 10 * 1024 * 1024;

/** Where an item is in the source file. */
export interface SourcePosition {
  /** 1-based: the n-th question of the file (Moodle category entries and GIFT `$CATEGORY:` lines not counted). */
  number: number;
  /** 1-based line where the question starts; null when unknown. */
  line: number | null;
}

export interface ParsedAnswer {
  /** Plain text. */
  text: string;
  right: boolean;
}

/**
 * A picture embedded in the source (Moodle `<file encoding="base64">` shown by `@@PLUGINFILE@@`)
 * that becomes the question's media: the first one the question text shows, else the first one
 * the feedback shows. Its bytes are not checked here; the importer checks them as an upload.
 */
export interface EmbeddedImage {
  name: string;
  /** The file's content, base64 as the source has it. */
  base64: string;
  /** Where the source shows it: in the question text, or in the feedback (the explanation here). */
  shownIn: "text" | "explanation";
}

/**
 * One question CareCampus can take. `text`, answer texts and `hint` are plain text (the quiz shows
 * them as text; HTML from the source is turned into text). `explanation` is HTML as the source has
 * it (plain source text is escaped): the caller sanitises it (sanitize-html, EXPLANATION_TAGS)
 * before storing. No length or count rule of the contract is applied here: the caller checks every
 * question with the contract's rules, as for any other question.
 */
export interface ParsedQuestion {
  /** The question's name in the source (Moodle `<name>`, GIFT `::title::`), or null. */
  sourceName: string | null;
  kind: "single" | "multiple";
  text: string;
  answers: ParsedAnswer[];
  explanation: string | null;
  hint: string | null;
  /** The source's category path below the course ("Hygiene / Händehygiene"), or null. */
  category: string | null;
  /** The embedded picture that becomes the question's media, or null. */
  image: EmbeddedImage | null;
  position: SourcePosition;
}

/** Why an item of the source is not imported. */
export type UnsupportedReason =
  /** A question type CareCampus has no counterpart for (essay, matching, numerical, …). */
  | "unsupported-type"
  /** Not a question: a Moodle or GIFT description (text only). */
  | "not-a-question"
  /** A choice question without answers. */
  | "no-answers"
  /** No answer gives full marks (single choice) or any marks (multiple choice). */
  | "no-right-answer"
  /** A single-choice question in which several answers give full marks (either one was right). */
  | "several-right-answers"
  /** The question text is empty once HTML is turned into text (e.g. only an image). */
  | "no-text"
  /** An answer's text is empty once HTML is turned into text (e.g. an image as the answer). */
  | "empty-answer"
  /** GIFT: this question cannot be read (see `detail` and the line). */
  | "syntax-error";

export const UNSUPPORTED_REASONS: readonly UnsupportedReason[] = [
  "unsupported-type",
  "not-a-question",
  "no-answers",
  "no-right-answer",
  "several-right-answers",
  "no-text",
  "empty-answer",
  "syntax-error",
];

export interface UnsupportedItem {
  /** The source's name for it, else the first words of its text, else "". */
  name: string;
  /**
   * The source's question type, in Moodle's names for both formats: multichoice, truefalse,
   * essay, matching, numerical, shortanswer, multianswer (cloze), description, ddwtos, … (a Moodle
   * file may name any plugin type; it is passed on as written).
   */
  sourceType: string;
  reason: UnsupportedReason;
  position: SourcePosition;
  /** For a syntax error: the parser's message (English). Otherwise null. */
  detail: string | null;
}

/** Something the preview should tell about an imported question, or about the file. */
export type ProblemCode =
  /** Images or other files (embedded `<file>`, `@@PLUGINFILE@@`, `<img>`, …) are not imported; detail: the file names. */
  | "media-not-imported"
  /** Images given by a web address are not fetched (no download from elsewhere); detail: the addresses. */
  | "remote-media-not-fetched"
  /** Formatting of the question or answer text (bold, lists, tables, …) was removed: they are plain text here. */
  | "formatting-removed"
  /** Single choice: answers with partial marks (0 < fraction < 100 %) are imported as wrong answers. */
  | "weighted-partial-credit"
  /** True/false: the answers are the source's labels ("true"/"false"); relabel them in the editor. */
  | "true-false-labels"
  /** Feedback given for particular answers is appended to the explanation. */
  | "answer-feedback-merged"
  /** The file holds U+FFFD replacement characters: it was probably not read as UTF-8. */
  | "not-utf8";

export const PROBLEM_CODES: readonly ProblemCode[] = [
  "media-not-imported",
  "remote-media-not-fetched",
  "formatting-removed",
  "weighted-partial-credit",
  "true-false-labels",
  "answer-feedback-merged",
  "not-utf8",
];

export interface QuestionBankProblem {
  code: ProblemCode;
  /** The question it concerns (it is in `questions`), or null for the file as a whole. */
  position: SourcePosition | null;
  /** That question's name or first words, or null for the file. */
  name: string | null;
  /** E.g. the names of the files not imported; null when there is nothing to add. */
  detail: string | null;
}

export interface QuestionBankResult {
  questions: ParsedQuestion[];
  unsupported: UnsupportedItem[];
  problems: QuestionBankProblem[];
}

/** Why a whole file cannot be read. */
export type QuestionBankErrorCode =
  /** Nothing but whitespace (or nothing at all). */
  | "empty"
  /** Longer than MAX_QUESTION_BANK_LENGTH. */
  | "too-large"
  /** Not a Moodle XML question export (not XML, or another root element than `<quiz>`). */
  | "not-moodle-xml"
  /** No GIFT question in it (no answer set in braces), or an XML file given as GIFT. */
  | "not-gift"
  /** The XML declares a DOCTYPE or entities: refused, a Moodle export never has them (entity-expansion attacks). */
  | "unsafe-xml"
  /** Malformed: XML that is not well-formed, or a GIFT file of which no question could be read. */
  | "syntax";

export class QuestionBankError extends Error {
  override readonly name = "QuestionBankError";
  constructor(
    readonly code: QuestionBankErrorCode,
    message: string,
    /** 1-based line of the fault, when known. */
    readonly line: number | null = null,
    readonly column: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
