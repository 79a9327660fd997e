/*
 * What valid learning content is: one set of rules for the content package importer, the
 * authoring API and the editor in the browser (ARCHITECTURE §3 'content validity').
 */

/** Where a piece of content comes from (ARCHITECTURE decision 13). */
export const CONTENT_ORIGINS = ["package", "common", "facility"] as const;
/**
 * - package: imported with `npm run content:import`; only an import changes or retires it.
 * - common: written in the app by a content manager or superchris, seen by every facility.
 * - facility: written in the app by a facility's administrators, seen only in that facility.
 */
export type ContentOrigin = (typeof CONTENT_ORIGINS)[number];

export const QUESTION_TYPES = ["single", "multiple"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Lengths and counts of content (characters after trimming). */
export const CONTENT_LIMITS = {
  name: 200,
  questionText: 2000,
  answerText: 1000,
  answersMin: 2,
  answersMax: 6,
  /** The explanation's HTML, before sanitising. */
  explanation: 10_000,
  hint: 1000,
  questionsMin: 1,
  questionsMax: 50,
  questionnairesMax: 20,
  description: 1000,
  wikiLink: 300,
  /** A training's legal basis, e.g. "§§ 42, 43 IfSG" (one line). */
  legalBasis: 200,
  validityMonthsMin: 1,
  validityMonthsMax: 120,
  pointsMax: 1000,
} as const;

/** The media a question's explanation may show, by type: the file kinds and their size limits. */
export const QUESTION_MEDIA_TYPES = {
  "image/png": { kind: "image", extensions: [".png"], maxBytes: 5 * 1024 * 1024 },
  "image/jpeg": { kind: "image", extensions: [".jpg", ".jpeg"], maxBytes: 5 * 1024 * 1024 },
  "image/webp": { kind: "image", extensions: [".webp"], maxBytes: 5 * 1024 * 1024 },
  "image/svg+xml": { kind: "image", extensions: [".svg"], maxBytes: 2 * 1024 * 1024 },
  "video/mp4": { kind: "video", extensions: [".mp4"], maxBytes: 200 * 1024 * 1024 },
} as const satisfies Record<string, { kind: "image" | "video"; extensions: readonly string[]; maxBytes: number }>;
export type QuestionMediaType = keyof typeof QUESTION_MEDIA_TYPES;

/**
 * Uploads in the app are smaller than package media: an upload goes through one request and the
 * database. SVG is not accepted from the browser (it could carry script); packages may have it,
 * refused there when it holds anything active.
 */
export const UPLOAD_MEDIA_TYPES: readonly QuestionMediaType[] = ["image/png", "image/jpeg", "image/webp", "video/mp4"];
export const UPLOAD_MAX_BYTES = { image: 5 * 1024 * 1024, video: 50 * 1024 * 1024 } as const;

/** The media type of a file name by its extension, or undefined when questions cannot show it. */
export function mediaTypeOfFile(fileName: string): QuestionMediaType | undefined {
  const dot = fileName.lastIndexOf(".");
  if (dot < 0) return undefined;
  const ext = fileName.slice(dot).toLowerCase();
  return (Object.keys(QUESTION_MEDIA_TYPES) as QuestionMediaType[]).find((t) =>
    (QUESTION_MEDIA_TYPES[t].extensions as readonly string[]).includes(ext),
  );
}

/** A problem with an upload, or undefined when the file may be stored. */
export function uploadProblem(mime: string, bytes: number): "type" | "size" | "empty" | undefined {
  const type = UPLOAD_MEDIA_TYPES.find((t) => t === mime);
  if (!type) return "type";
  if (bytes === 0) return "empty";
  const { kind } = QUESTION_MEDIA_TYPES[type];
  return bytes > UPLOAD_MAX_BYTES[kind] ? "size" : undefined;
}

export interface QuestionInput {
  type: string;
  text: string;
  answers: readonly { text: string; correct?: boolean | undefined }[];
  explanation: string;
  hint?: string | null | undefined;
}

/** Why a question is not valid: a stable code and where (the editor translates the code). */
export type QuestionProblemCode =
  | "type"
  | "textRequired"
  | "textTooLong"
  | "answersTooFew"
  | "answersTooMany"
  | "answerTextRequired"
  | "answerTextTooLong"
  | "answerDuplicate"
  | "singleNeedsOneCorrect"
  | "multipleNeedsCorrect"
  | "explanationRequired"
  | "explanationTooLong"
  | "hintTooLong";

export interface QuestionProblem {
  /** The field: ["text"], ["answers"], ["answers", 2, "text"], … */
  path: (string | number)[];
  code: QuestionProblemCode;
  /** English, for the importer's report and the API's error message. */
  message: string;
}

/**
 * Every rule a question breaks (empty: valid). Texts are judged trimmed; the explanation by its
 * length before sanitising (what the author wrote).
 */
export function questionProblems(q: QuestionInput): QuestionProblem[] {
  const L = CONTENT_LIMITS;
  const out: QuestionProblem[] = [];
  const add = (path: QuestionProblem["path"], code: QuestionProblemCode, message: string) =>
    out.push({ path, code, message });
  if (!(QUESTION_TYPES as readonly string[]).includes(q.type)) add(["type"], "type", "must be single or multiple");
  const text = q.text.trim();
  if (text === "") add(["text"], "textRequired", "must not be empty");
  else if (text.length > L.questionText) add(["text"], "textTooLong", `at most ${L.questionText} characters`);
  if (q.answers.length < L.answersMin) add(["answers"], "answersTooFew", `at least ${L.answersMin} answers`);
  if (q.answers.length > L.answersMax) add(["answers"], "answersTooMany", `at most ${L.answersMax} answers`);
  const seen = new Set<string>();
  for (const [i, a] of q.answers.entries()) {
    const t = a.text.trim();
    if (t === "") add(["answers", i, "text"], "answerTextRequired", "must not be empty");
    else if (t.length > L.answerText)
      add(["answers", i, "text"], "answerTextTooLong", `at most ${L.answerText} characters`);
    else if (seen.has(t.toLocaleLowerCase())) add(["answers", i, "text"], "answerDuplicate", "the same answer twice");
    seen.add(t.toLocaleLowerCase());
  }
  const correct = q.answers.filter((a) => a.correct === true).length;
  if (q.type === "single" && correct !== 1) {
    add(
      ["answers"],
      "singleNeedsOneCorrect",
      `a single-choice question needs exactly one correct answer (has ${correct})`,
    );
  }
  if (q.type === "multiple" && correct < 1) {
    add(["answers"], "multipleNeedsCorrect", "a multiple-choice question needs at least one correct answer");
  }
  const explanation = q.explanation.trim();
  if (explanation === "") add(["explanation"], "explanationRequired", "must not be empty");
  else if (explanation.length > L.explanation)
    add(["explanation"], "explanationTooLong", `at most ${L.explanation} characters`);
  if ((q.hint ?? "").trim().length > L.hint) add(["hint"], "hintTooLong", `at most ${L.hint} characters`);
  return out;
}

/**
 * A training's legal basis as stored: one line in NFC (line breaks and runs of spaces, e.g. of a
 * folded YAML line, become one space), null when empty. Judged against CONTENT_LIMITS.legalBasis after
 * this, by the importer and the API alike.
 */
export function normalizeLegalBasis(text: string | null | undefined): string | null {
  const s = (text ?? "").normalize("NFC").replace(/\s+/gu, " ").trim();
  return s === "" ? null : s;
}

/** A topic's colour: #rrggbb. */
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** A training's wiki link: a path under /wiki. */
export const WIKI_LINK_PATTERN = /^\/wiki(\/[^\s]*)?$/;
