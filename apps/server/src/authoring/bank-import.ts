import {
  type AuthoringQuestionInput,
  CONTENT_LIMITS,
  ErrorCode,
  type QuestionBankImportBody,
  type QuestionBankImported,
  type QuestionBankPreview,
  type QuestionMediaType,
  questionProblems,
} from "@carecampus/contract";
import type { Actor } from "../access/policy";
import { sanitizeExplanation } from "../content/service";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { mediaRefusal, storeEmbeddedMedia } from "./media";
import { parseQuestionBank, QuestionBankError } from "./question-bank";
import { addQuestionsByCategory, getQuestionnaire } from "./service";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** A picture of the file that will become a question's media: its bytes, told by themselves. */
interface AcceptedImage {
  mime: QuestionMediaType;
  bytes: Buffer;
}

/** The preview, and the pictures it accepted by question number (kept for the import). */
interface ReadBank {
  preview: QuestionBankPreview;
  images: Map<number, AcceptedImage>;
}

/**
 * What a question bank holds, judged by the contract's rules of valid content: the questions
 * that will be imported (as they will be stored) and everything that will not, named. An embedded
 * picture passes the checks of an upload (its type told by its bytes, its size): refused, a
 * question whose text shows it is skipped (it may ask about the picture), one whose feedback shows
 * it is imported without it, both named with the reason.
 */
function readBank(body: QuestionBankImportBody): ReadBank {
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
    categories: [],
    skipped: parsed.unsupported.map((u) => ({
      number: u.position.number,
      name: u.name,
      source_type: u.sourceType,
      reason: u.reason,
      detail: u.detail,
    })),
    notes: parsed.problems.map((p) => ({ code: p.code, number: p.position?.number ?? null, detail: p.detail })),
  };
  const images = new Map<number, AcceptedImage>();
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
    const skip = (reason: string, detail: string | null) =>
      preview.skipped.push({
        number: q.position.number,
        name: q.sourceName ?? q.text.slice(0, 80),
        source_type: q.kind,
        reason,
        detail,
      });
    const broken = questionProblems(candidate)[0];
    if (broken) {
      skip(broken.code, broken.message);
      continue;
    }
    let image: QuestionBankPreview["questions"][number]["image"] = null;
    if (q.image) {
      const bytes = Buffer.from(q.image.base64, "base64");
      const checked = mediaRefusal(bytes);
      if (checked.mime) {
        images.set(q.position.number, { mime: checked.mime, bytes });
        image = { name: q.image.name, type: checked.mime.startsWith("video/") ? "video" : "image", size: bytes.length };
      } else if (q.image.shownIn === "text") {
        skip(checked.reason, q.image.name);
        continue;
      } else {
        preview.notes.push({ code: checked.reason, number: q.position.number, detail: q.image.name });
      }
    }
    preview.questions.push({
      number: q.position.number,
      ...candidate,
      hint: q.hint && q.hint.trim() !== "" ? q.hint.trim() : null,
      explanation_generated: given === "",
      image,
      category: q.category,
    });
  }
  const counts = new Map<string, number>();
  for (const q of preview.questions) if (q.category) counts.set(q.category, (counts.get(q.category) ?? 0) + 1);
  preview.categories = [...counts].map(([name, count]) => ({ name, count }));
  preview.skipped.sort((a, b) => a.number - b.number);
  return { preview, images };
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
  return readBank(body).preview;
}

/**
 * Imports what the preview of the same file lists, all or nothing: at the end of the
 * questionnaire, or with categories=questionnaires one new draft questionnaire per category in its
 * training (questions without a category at the end of this one). The embedded pictures are
 * stored first, as uploads are (the same file twice is stored once), then every question in one
 * transaction.
 */
export async function importBank(
  clock: DbClock,
  actor: Actor,
  questionnaireId: number,
  body: QuestionBankImportBody,
  quotaBytes: number | null,
): Promise<QuestionBankImported> {
  const current = await getQuestionnaire(clock, actor, questionnaireId);
  if (!current.editable) throw new AppError(ErrorCode.forbidden, "Your role may not edit this questionnaire");
  const { preview, images } = readBank(body);
  if (preview.questions.length === 0) {
    throw new AppError(ErrorCode.validation, "Nothing in the file can be imported");
  }
  const media = new Map<number, AuthoringQuestionInput["media"]>();
  for (const [number, image] of images) {
    const stored = await storeEmbeddedMedia(clock.db, actor, image.mime, image.bytes, quotaBytes);
    media.set(number, { type: stored.type, id: stored.id });
  }
  const byCategory = body.categories === "questionnaires";
  const groups = new Map<string | null, AuthoringQuestionInput[]>();
  for (const q of preview.questions) {
    const group = byCategory ? q.category : null;
    const input: AuthoringQuestionInput = {
      type: q.type,
      text: q.text,
      answers: q.answers,
      explanation: q.explanation,
      hint: q.hint,
      media: media.get(q.number) ?? null,
    };
    const list = groups.get(group);
    if (list) list.push(input);
    else groups.set(group, [input]);
  }
  const named = [...groups].flatMap(([name, inputs]) =>
    name === null ? [] : [{ name: questionnaireName(name), inputs }],
  );
  const result = await addQuestionsByCategory(clock, actor, questionnaireId, groups.get(null) ?? [], named);
  return { ...result, imported: preview.questions.length };
}

/** A category's path as a questionnaire's name: the whole path when it fits, else its end. */
function questionnaireName(path: string): string {
  const max = CONTENT_LIMITS.name;
  return path.length <= max ? path : `…${path.slice(path.length - max + 1)}`;
}
