import { parseGift } from "./gift";
import { parseMoodleXml } from "./moodle-xml";
import { normaliseInput } from "./text";
import {
  MAX_QUESTION_BANK_LENGTH,
  QuestionBankError,
  type QuestionBankFormat,
  type QuestionBankProblem,
  type QuestionBankResult,
} from "./types";

/*
 * Reading question banks other LMSs export (Moodle XML, GIFT) into CareCampus questions, for the
 * import preview: nothing here writes anything. The caller validates each question with the
 * contract's content rules and sanitises the explanation HTML before storing.
 */

export {
  MAX_QUESTION_BANK_LENGTH,
  type ParsedAnswer,
  type ParsedQuestion,
  PROBLEM_CODES,
  type ProblemCode,
  QUESTION_BANK_FORMATS,
  QuestionBankError,
  type QuestionBankErrorCode,
  type QuestionBankFormat,
  type QuestionBankProblem,
  type QuestionBankResult,
  type SourcePosition,
  UNSUPPORTED_REASONS,
  type UnsupportedItem,
  type UnsupportedReason,
} from "./types";

/**
 * Reads a question bank. Returns what can be imported, what cannot (named, with a reason) and
 * problems; throws only a QuestionBankError, when the file as a whole cannot be read.
 */
export function parseQuestionBank(format: QuestionBankFormat, text: string): QuestionBankResult {
  if (typeof text !== "string") throw new QuestionBankError("empty", "No text given.");
  if (text.length > MAX_QUESTION_BANK_LENGTH) {
    throw new QuestionBankError("too-large", `The file is larger than ${MAX_QUESTION_BANK_LENGTH} characters.`);
  }
  const input = normaliseInput(text);
  if (input.trim() === "") throw new QuestionBankError("empty", "The file is empty.");
  let result: QuestionBankResult;
  try {
    if (format === "moodle-xml") result = parseMoodleXml(input);
    else if (format === "gift") result = parseGift(input);
    else throw new QuestionBankError("syntax", `Unknown format: ${String(format)}`);
  } catch (err) {
    if (err instanceof QuestionBankError) throw err;
    // Whatever else is thrown (a stack overflow on a pathological file, say) still means a file
    // that cannot be read, never an uncaught error; `cause` keeps it for the log (and lets the
    // tests tell it from the parsers' own refusals, which have none).
    throw new QuestionBankError(
      "syntax",
      `The file could not be read: ${err instanceof Error ? err.message : String(err)}`,
      null,
      null,
      { cause: err },
    );
  }
  if (input.includes("\uFFFD")) result.problems.unshift(fileProblem("not-utf8"));
  return result;
}

function fileProblem(code: QuestionBankProblem["code"]): QuestionBankProblem {
  return { code, position: null, name: null, detail: null };
}
