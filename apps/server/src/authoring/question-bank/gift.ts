import { type GIFTQuestion, parse, type TextFormat } from "gift-pegjs";
import { displayName, mapChoiceQuestion, type SourceFormat, type SourceText } from "./choice-question";
import { categoryPath, firstWords } from "./text";
import { QuestionBankError, type QuestionBankResult, type SourcePosition } from "./types";

/*
 * GIFT (Moodle's text format). Questions are separated by blank lines, so the file is cut there
 * and each question is parsed on its own with gift-pegjs: a question that cannot be read is
 * named with its line ("syntax-error") and the others are still imported. Lines starting with //
 * are comments; `$CATEGORY: path` sets the category of the questions after it.
 *
 * Choice questions follow Moodle's GIFT reader: an answer marked = is worth 100 %, one marked ~ is
 * worth its %weight% (0 without one); a question with an = answer is single choice, one without is
 * multiple choice ({~%50%a ~%50%b ~%-100%c}). gift-pegjs reads a set of only = answers as a short
 * answer question, as Moodle does. True/false feedback is Moodle's {T#for a wrong answer#for a
 * right answer}.
 */

interface Block {
  /** The block's lines, comments included, as the parser sees them. */
  text: string;
  /** Line of the block's first line. */
  firstLine: number;
  /** Line of its first line that is not a comment: where the question starts. */
  questionLine: number;
}

const BLANK = /^[ \t]*$/;
const COMMENT = /^[ \t]*\/\//;
const CATEGORY = /^[ \t]*\$CATEGORY:(.*)$/;

/** GIFT's type names in Moodle's words, which both formats report in. */
const SOURCE_TYPES: Record<GIFTQuestion["type"], string> = {
  MC: "multichoice",
  TF: "truefalse",
  Short: "shortanswer",
  Numerical: "numerical",
  Essay: "essay",
  Matching: "matching",
  Description: "description",
  Category: "category",
};

export function parseGift(text: string): QuestionBankResult {
  if (/^\s*<(\?xml|quiz|!DOCTYPE)/i.test(text.slice(0, 1000))) {
    throw new QuestionBankError("not-gift", "This is XML, not GIFT (Moodle XML is a format of its own).");
  }
  const result: QuestionBankResult = { questions: [], unsupported: [], problems: [] };
  let category: string | null = null;
  let number = 0;
  let readQuestions = 0;
  let firstSyntaxError: { line: number | null; message: string } | null = null;

  for (const block of blocks(text)) {
    if ("category" in block) {
      category = categoryPath(block.category);
      continue;
    }
    number += 1;
    let parsed: GIFTQuestion[];
    try {
      parsed = parse(escapeLoneColons(block.text));
    } catch (err) {
      const where = errorLocation(err);
      const line = where ? block.firstLine + where.line - 1 : block.questionLine;
      const message = err instanceof Error ? err.message : String(err);
      firstSyntaxError ??= { line, message };
      result.unsupported.push({
        name: nameOfUnreadable(block.text),
        sourceType: "unknown",
        reason: "syntax-error",
        position: { number, line },
        detail: where ? `line ${line}: ${message}` : message,
      });
      continue;
    }
    const position: SourcePosition = { number, line: block.questionLine };
    for (const q of parsed) {
      if (q.type === "Category") {
        category = categoryPath(q.title);
        continue;
      }
      if (q.type === "Description") {
        result.unsupported.push({
          name: displayName(q.title, sourceText(q.stem)),
          sourceType: SOURCE_TYPES.Description,
          reason: "not-a-question",
          position,
          detail: null,
        });
        continue;
      }
      readQuestions += 1;
      const stem = sourceText(q.stem);
      const common = { name: q.title, position, category, text: stem, hints: [], embeddedFiles: [] };
      const globalFeedback = q.globalFeedback ? sourceText(q.globalFeedback) : null;
      let outcome: ReturnType<typeof mapChoiceQuestion> | null = null;
      if (q.type === "MC") {
        outcome = mapChoiceQuestion({
          ...common,
          sourceType: SOURCE_TYPES.MC,
          single: q.choices.some((c) => c.isCorrect),
          trueFalse: false,
          answers: q.choices.map((c) => ({
            text: sourceText(c.text),
            fraction: c.isCorrect ? 100 : (c.weight ?? 0),
            feedback: c.feedback ? sourceText(c.feedback) : null,
          })),
          generalFeedback: globalFeedback,
        });
      } else if (q.type === "TF") {
        // gift-pegjs names the two feedbacks by position: the first is for a wrong answer, the second for a right one.
        const forWrong = q.trueFeedback ? sourceText(q.trueFeedback) : null;
        const forRight = q.falseFeedback ? sourceText(q.falseFeedback) : null;
        outcome = mapChoiceQuestion({
          ...common,
          sourceType: SOURCE_TYPES.TF,
          single: true,
          trueFalse: true,
          answers: [
            { text: plain("true"), fraction: q.isTrue ? 100 : 0, feedback: q.isTrue ? forRight : forWrong },
            { text: plain("false"), fraction: q.isTrue ? 0 : 100, feedback: q.isTrue ? forWrong : forRight },
          ],
          generalFeedback: globalFeedback,
        });
      }
      if (outcome === null) {
        result.unsupported.push({
          name: displayName(q.title, stem),
          sourceType: SOURCE_TYPES[q.type],
          reason: "unsupported-type",
          position,
          detail: null,
        });
      } else if ("question" in outcome) {
        result.questions.push(outcome.question);
        result.problems.push(...outcome.problems);
      } else {
        result.unsupported.push(outcome.unsupported);
      }
    }
  }

  if (readQuestions === 0) {
    if (firstSyntaxError) {
      throw new QuestionBankError(
        "syntax",
        `No question could be read as GIFT: ${firstSyntaxError.message}`,
        firstSyntaxError.line,
      );
    }
    throw new QuestionBankError("not-gift", "No GIFT question (an answer set in braces) found.");
  }
  return result;
}

/**
 * The file cut at blank lines into questions; blocks of only comments are dropped, a
 * `$CATEGORY:` line is read here (the rest of its block, if any, is a question of its own).
 */
function blocks(text: string): (Block | { category: string })[] {
  const out: (Block | { category: string })[] = [];
  const flush = (block: string[], firstLine: number) => {
    let lines = block;
    let first = firstLine;
    for (;;) {
      const q = lines.findIndex((l) => !COMMENT.test(l));
      if (q === -1) return;
      const category = CATEGORY.exec(lines[q] ?? "");
      if (!category) {
        out.push({ text: lines.join("\n"), firstLine: first, questionLine: first + q });
        return;
      }
      out.push({ category: category[1] ?? "" });
      lines = lines.slice(q + 1);
      first += q + 1;
    }
  };
  let current: string[] = [];
  let start = 1;
  text.split("\n").forEach((line, i) => {
    if (!BLANK.test(line)) {
      if (current.length === 0) start = i + 1;
      current.push(line);
    } else if (current.length) {
      flush(current, start);
      current = [];
    }
  });
  if (current.length) flush(current, start);
  return out;
}

/**
 * Moodle's GIFT reader takes a lone ':' as text ("Merksatz: …", "1:100"); gift-pegjs wants it
 * escaped, as Moodle's export writes it. Lone colons are escaped here, except in numerical answer
 * sets ({#20:2}, where ':' is the tolerance) and comment lines; '::' (titles) stays as it is.
 */
export function escapeLoneColons(text: string): string {
  let out = "";
  let inAnswers = false;
  let numerical = false;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (lineStart && /^[ \t]*\/\//.test(text.slice(i, i + 200))) {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      out += text.slice(i, stop);
      i = stop - 1;
      lineStart = false;
      continue;
    }
    lineStart = c === "\n";
    if (c === "\\") {
      out += text.slice(i, i + 2);
      i += 1;
    } else if (c === "{") {
      inAnswers = true;
      numerical = /^\s*#(?!###)/.test(text.slice(i + 1, i + 100));
      out += c;
    } else if (c === "}") {
      inAnswers = false;
      out += c;
    } else if (c === "#" && inAnswers && text.startsWith("####", i)) {
      numerical = false; // the general feedback is text again
      out += "####";
      i += 3;
    } else if (c === ":" && text.charAt(i - 1) !== ":" && text.charAt(i + 1) !== ":" && !(inAnswers && numerical)) {
      out += "\\:";
    } else {
      out += c;
    }
  }
  return out;
}

function plain(value: string): SourceText {
  return { value, format: "plain" };
}

function sourceText(t: TextFormat): SourceText {
  const format: SourceFormat =
    t.format === "html"
      ? "html"
      : t.format === "markdown"
        ? "markdown"
        : t.format === "plain"
          ? "plain"
          : "moodle-auto";
  return { value: t.text, format };
}

/** The line (within the block) a gift-pegjs SyntaxError names; columns are left out, escaping shifts them. */
function errorLocation(err: unknown): { line: number } | null {
  if (typeof err !== "object" || err === null || !("location" in err)) return null;
  const start = (err as { location?: { start?: { line?: unknown } } }).location?.start;
  return typeof start?.line === "number" ? { line: start.line } : null;
}

/** A question that could not be read: its ::title:: if it has one, else its first words. */
function nameOfUnreadable(text: string): string {
  const body = text
    .split("\n")
    .filter((l) => !COMMENT.test(l))
    .join(" ");
  const title = /^\s*::((?:\\.|[^:\\]|:(?!:))*)::/.exec(body);
  if (title?.[1]?.trim()) return title[1].replace(/\\(.)/g, "$1").trim();
  return firstWords(body);
}
