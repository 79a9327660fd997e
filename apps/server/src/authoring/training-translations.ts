import {
  ErrorCode,
  NameTranslationWrite,
  QuestionTranslationWrite,
  type TranslationFileFormat,
  type TranslationImportReport,
  type TranslationStatus,
} from "@carecampus/contract";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { type Actor, assertMay, decide, mayEditQuestionnaire, ownedBy } from "../access/policy";
import { recordAudit } from "../audit/record";
import { sanitizeExplanation } from "../content/service";
import { nameHash, sourceHash } from "../content/translations";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { answers, questionnaires, questions, questionTranslations, topics, trainings } from "../db/schema";
import { runTransaction } from "../db/transaction";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { brokenMarkup } from "./markup";
import {
  lockCommonNames,
  type NameRow,
  type NameSource,
  nameRows,
  trainingNameSources,
  writeNameTranslation,
} from "./name-translations";
import {
  type ExportUnit,
  fileText,
  type ImportUnit,
  parseCsv,
  parseXliff,
  unitId,
  writeCsv,
  writeXliff,
} from "./translation-files";
import { assertContentLanguage, storeTranslation } from "./translations";

/*
 * A training's translations as one file for translators (issue 31): the export lists the
 * training's live questions the caller may edit, German beside the translation; the import takes
 * such a file back, unit by unit (one unit a question), in one transaction. A unit is refused —
 * and named with its reason — when its id is not such a question, when the German changed since
 * the file was made (the unit's version is not the German's now), when the explanation's markup is
 * broken, when only some of its texts are translated, or when a text breaks the rules of a
 * translation (QuestionTranslationWrite); the rest is written. The names of the training, its
 * topic and its questionnaires that the caller may translate come along as units of their own
 * (name-translations.ts), judged the same way.
 */

/** A name the caller may translate, with its translation into the file's language. */
interface Name extends NameSource {
  unit: string;
  version: string;
  translation: NameRow | null;
}

/** The training's names the actor may translate, by unit id, in their order. */
async function namesOf(db: Db | Tx, actor: Actor, trainingId: number, lang: string): Promise<Map<string, Name>> {
  const items = (await trainingNameSources(db, actor, trainingId)).filter((i) => i.editable);
  const rows = await nameRows(db, items, lang);
  return new Map(
    items.map((i) => {
      const unit = `${i.kind}${i.id}`;
      const translation = rows.find((r) => r.kind === i.kind && r.itemId === i.id) ?? null;
      return [unit, { ...i, unit, version: nameHash(i.name), translation }];
    }),
  );
}

/** The label a translator reads beside a name's unit. */
const NAME_LABELS = { topic: "Topic", training: "Training", questionnaire: "Questionnaire" } as const;

function nameExportUnit(n: Name): ExportUnit {
  const t = n.translation;
  return {
    unit: n.unit,
    version: n.version,
    label: `${NAME_LABELS[n.kind]}: ${n.name}`,
    status: t === null ? null : t.sourceHash === n.version ? (t.status as TranslationStatus) : "draft",
    fields: [{ id: "name", source: n.name, target: t?.name ?? "" }],
  };
}

interface Question {
  id: number;
  questionnaireId: number;
  facilityId: number | null;
  questionnaire: string;
  number: number;
  text: string;
  explanation: string;
  hint: string | null;
  answers: { id: number; text: string }[];
  version: string;
  translation: typeof questionTranslations.$inferSelect | null;
}

async function loadTraining(db: Db | Tx, id: number): Promise<{ id: number; name: string }> {
  const [row] = await db
    .select({ id: trainings.id, name: trainings.name })
    .from(trainings)
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(and(eq(trainings.id, id), eq(trainings.retired, false), eq(topics.retired, false)));
  if (!row) throw new AppError(ErrorCode.trainingNotFound, "Training not found");
  return row;
}

/** The training's live questionnaires the actor may edit, in their order. */
async function editableQuestionnaires(db: Db | Tx, actor: Actor, trainingId: number) {
  const rows = await db
    .select({ id: questionnaires.id, name: questionnaires.name, facilityId: questionnaires.facilityId })
    .from(questionnaires)
    .where(and(eq(questionnaires.trainingId, trainingId), eq(questionnaires.retired, false)))
    .orderBy(asc(questionnaires.position), asc(questionnaires.id));
  return rows.filter(
    (q) =>
      decide(actor, "authoring.read", ownedBy(q.facilityId)) === "allow" && mayEditQuestionnaire(actor, q.facilityId),
  );
}

/** The live questions of those questionnaires, German and the translation into `lang`, in order. */
async function questionsOf(
  db: Db | Tx,
  qns: { id: number; name: string; facilityId: number | null }[],
  lang: string,
): Promise<Question[]> {
  if (qns.length === 0) return [];
  const ids = qns.map((q) => q.id);
  const rows = await db
    .select({
      id: questions.id,
      questionnaireId: questions.questionnaireId,
      text: questions.text,
      explanation: questions.explanation,
      hint: questions.hint,
      translation: questionTranslations,
    })
    .from(questions)
    .leftJoin(
      questionTranslations,
      and(eq(questionTranslations.questionId, questions.id), eq(questionTranslations.lang, lang)),
    )
    .where(and(inArray(questions.questionnaireId, ids), eq(questions.retired, false), isNull(questions.supersededAt)))
    .orderBy(asc(questions.position), asc(questions.id));
  const answerRows =
    rows.length === 0
      ? []
      : await db
          .select({ id: answers.id, questionId: answers.questionId, text: answers.text })
          .from(answers)
          .where(
            and(
              inArray(
                answers.questionId,
                rows.map((r) => r.id),
              ),
              eq(answers.retired, false),
            ),
          )
          .orderBy(asc(answers.position), asc(answers.id));
  const out: Question[] = [];
  for (const qn of qns) {
    let number = 0;
    for (const r of rows.filter((row) => row.questionnaireId === qn.id)) {
      number += 1;
      const live = answerRows.filter((a) => a.questionId === r.id).map((a) => ({ id: a.id, text: a.text }));
      const german = { text: r.text, answers: live, explanation: r.explanation, hint: r.hint };
      out.push({
        ...german,
        id: r.id,
        questionnaireId: qn.id,
        facilityId: qn.facilityId,
        questionnaire: qn.name,
        number,
        version: sourceHash(german),
        translation: r.translation,
      });
    }
  }
  return out;
}

/** The segments of a question: its text, each live answer, the explanation and, where the German has one, the hint. */
function segments(q: Question): { id: string; source: string; translated: (t: Question["translation"]) => string }[] {
  const byId = (t: Question["translation"], id: number) => t?.answers.find((a) => a.id === id)?.text ?? "";
  return [
    { id: "text", source: q.text, translated: (t) => t?.text ?? "" },
    ...q.answers.map((a) => ({
      id: `a${a.id}`,
      source: a.text,
      translated: (t: Question["translation"]) => byId(t, a.id),
    })),
    { id: "explanation", source: q.explanation, translated: (t) => t?.explanation ?? "" },
    ...(q.hint === null
      ? []
      : [{ id: "hint", source: q.hint, translated: (t: Question["translation"]) => t?.hint ?? "" }]),
  ];
}

function exportUnit(q: Question): ExportUnit {
  const t = q.translation;
  // A translation of an earlier German comes along to be revised, as a draft of the German now.
  const status: TranslationStatus | null =
    t === null ? null : t.sourceHash === q.version ? (t.status as TranslationStatus) : "draft";
  return {
    unit: unitId(q.id),
    version: q.version,
    label: `${q.questionnaire} · ${q.number}`,
    status,
    fields: segments(q).map((s) => ({ id: s.id, source: s.source, target: s.translated(t) })),
  };
}

const FILE_TYPES: Record<TranslationFileFormat, { ext: string; type: string }> = {
  xliff: { ext: "xlf", type: "application/xliff+xml; charset=utf-8" },
  csv: { ext: "csv", type: "text/csv; charset=utf-8" },
};

export async function exportTrainingTranslations(
  db: Db,
  actor: Actor,
  trainingId: number,
  lang: string,
  format: TranslationFileFormat,
  contentLanguages: string[],
): Promise<{ body: string; filename: string; contentType: string }> {
  assertMay(actor, "authoring.read");
  assertContentLanguage(lang, contentLanguages);
  const training = await loadTraining(db, trainingId);
  const units = [
    ...[...(await namesOf(db, actor, trainingId, lang)).values()].map(nameExportUnit),
    ...(await questionsOf(db, await editableQuestionnaires(db, actor, trainingId), lang)).map(exportUnit),
  ];
  const { ext, type } = FILE_TYPES[format];
  return {
    body: format === "xliff" ? writeXliff(units, lang, training) : writeCsv(units, lang),
    filename: `${training.name} (${lang}).${ext}`,
    contentType: type,
  };
}

type Refusal = TranslationImportReport["refused"][number];
type Verdict =
  | { kind: "refused"; refusal: Refusal }
  | { kind: "empty" }
  | { kind: "write"; question: Question; body: QuestionTranslationWrite; explanation: string }
  | { kind: "name"; name: Name; body: NameTranslationWrite };

/** The refusals every unit may get, question or name: unknown, outdated, markup, fields twice; else null. */
function firstChecks(
  u: ImportUnit,
  found: { version: string } | undefined,
  refuse: (reason: Refusal["reason"], detail: string) => Verdict,
): Verdict | null {
  // Nothing translated in it (under any id): left alone, whatever it names.
  if (u.markup.length === 0 && [...u.targets.values()].every((t) => t.trim() === "")) return { kind: "empty" };
  if (!found) {
    return refuse("unknown-id", `"${u.unit}" is not a question or name of this training that you may edit`);
  }
  if (u.version !== found.version) {
    return refuse(
      "outdated-source",
      u.version === null
        ? "The unit has no single version of the German text: export the file again"
        : "The German text changed since the file was made: export the file again and translate the new text",
    );
  }
  if (u.markup.length > 0) {
    return refuse("broken-markup", `Only text, no XLIFF elements, in the target of: ${u.markup.join(", ")}`);
  }
  if (u.duplicates.length > 0)
    return refuse("invalid", `Given more than once: ${[...new Set(u.duplicates)].join(", ")}`);
  return null;
}

/** What a name's unit asks (`name`: undefined when the file names none the caller may translate). */
function judgeName(u: ImportUnit, name: Name): Verdict {
  const refuse = (reason: Refusal["reason"], detail: string): Verdict => ({
    kind: "refused",
    refusal: { unit: u.unit, question_id: null, reason, detail },
  });
  const early = firstChecks(u, name, refuse);
  if (early) return early;
  const unknown = [...u.targets.keys()].filter((id) => id !== "name");
  if (unknown.length > 0) return refuse("invalid", `Not a text of this name: ${unknown.join(", ")}`);
  if (u.status === null) {
    return refuse("invalid", `"${u.badStatus ?? ""}" is not a status (draft, machine, reviewed, published)`);
  }
  const body = NameTranslationWrite.safeParse({ name: (u.targets.get("name") ?? "").trim(), status: u.status });
  if (!body.success) {
    const issue = body.error.issues[0];
    return refuse("invalid", `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  return { kind: "name", name, body: body.data };
}

/** Whether the stored name translation is already what the unit brings (an outdated one brought back as it was stays so). */
function sameName(v: Extract<Verdict, { kind: "name" }>): boolean {
  const t = v.name.translation;
  if (!t || t.name !== v.body.name) return false;
  return t.sourceHash !== v.name.version || t.status === v.body.status;
}

/** What a unit of the file asks for the question it names (`question`: undefined when none). */
function judge(u: ImportUnit, question: Question | undefined): Verdict {
  const refuse = (reason: Refusal["reason"], detail: string): Verdict => ({
    kind: "refused",
    refusal: { unit: u.unit, question_id: question ? question.id : u.questionId, reason, detail },
  });
  const early = firstChecks(u, question, refuse);
  if (early || !question) return early ?? refuse("unknown-id", u.unit);
  const wanted = segments(question);
  const unknown = [...u.targets.keys()].filter((id) => !wanted.some((s) => s.id === id));
  if (unknown.length > 0) return refuse("invalid", `Not a text of this question: ${unknown.join(", ")}`);
  const required = wanted.filter((s) => s.id !== "hint");
  const missing = required.filter((s) => (u.targets.get(s.id) ?? "").trim() === "");
  if (missing.length > 0) {
    return refuse("incomplete", `Not translated: ${missing.map((s) => s.id).join(", ")}; translate every text or none`);
  }
  const given = u.targets.get("explanation") ?? "";
  const broken = brokenMarkup(given);
  if (broken) return refuse("broken-markup", `explanation: ${broken}`);
  if (u.status === null) {
    return refuse("invalid", `"${u.badStatus ?? ""}" is not a status (draft, machine, reviewed, published)`);
  }
  const hint = (u.targets.get("hint") ?? "").trim();
  const body = QuestionTranslationWrite.safeParse({
    text: u.targets.get("text"),
    answers: question.answers.map((a) => ({ id: a.id, text: u.targets.get(`a${a.id}`) })),
    explanation: given,
    hint: hint === "" ? null : hint,
    status: u.status,
  });
  if (!body.success) {
    const issue = body.error.issues[0];
    return refuse("invalid", `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  const explanation = sanitizeExplanation(body.data.explanation);
  if (explanation === "") return refuse("broken-markup", "explanation: nothing of it is left once sanitised");
  return { kind: "write", question, body: body.data, explanation };
}

/** Whether the stored translation is already what the unit brings. */
function same(q: Question, v: Extract<Verdict, { kind: "write" }>): boolean {
  const t = q.translation;
  if (!t) return false;
  // An outdated translation brought back with its very texts was not revised: it stays outdated
  // (and as it was), whatever status the file gives it.
  if (t.sourceHash !== q.version) return sameTexts(t, v);
  return t.status === v.body.status && sameTexts(t, v);
}

function sameTexts(t: NonNullable<Question["translation"]>, v: Extract<Verdict, { kind: "write" }>): boolean {
  return (
    t.text === v.body.text &&
    t.explanation === v.explanation &&
    (t.hint ?? null) === v.body.hint &&
    t.answers.length === v.body.answers.length &&
    v.body.answers.every((a) => t.answers.some((b) => b.id === a.id && b.text === a.text))
  );
}

function parseFile(format: TranslationFileFormat, body: unknown, lang: string): ImportUnit[] {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new AppError(ErrorCode.validation, "Send the translation file as the request's body");
  }
  const text = fileText(body);
  return format === "xliff" ? parseXliff(text, lang) : parseCsv(text, lang);
}

export async function importTrainingTranslations(
  clock: DbClock,
  actor: Actor,
  trainingId: number,
  query: { lang: string; format: TranslationFileFormat; dry_run?: "true" | "false" },
  body: unknown,
  contentLanguages: string[],
): Promise<TranslationImportReport> {
  assertMay(actor, "authoring.read");
  const { lang, format } = query;
  const dryRun = query.dry_run === "true";
  assertContentLanguage(lang, contentLanguages);
  await loadTraining(clock.db, trainingId);
  const units = parseFile(format, body, lang);
  const seen = new Set<string>();
  for (const u of units) {
    if (seen.has(u.unit)) throw new AppError(ErrorCode.validation, `The unit "${u.unit}" is in the file twice`);
    seen.add(u.unit);
  }
  return runTransaction(clock.db, async (tx) => {
    await loadTraining(tx, trainingId);
    const qns = await editableQuestionnaires(tx, actor, trainingId);
    // The same locks as a save of each questionnaire (authoring/service.ts write), in one order.
    if (!dryRun) {
      for (const id of qns.map((q) => q.id).sort((a, b) => a - b)) {
        await lockForTransaction(tx, "authoringQuestionnaire", id);
      }
      // The topic's and training's names stay as read until the import commits.
      await lockCommonNames(tx, trainingId);
    }
    const names = await namesOf(tx, actor, trainingId, lang);
    const byId = new Map((await questionsOf(tx, qns, lang)).map((q) => [q.id, q]));
    const report: TranslationImportReport = {
      dry_run: dryRun,
      lang,
      format,
      changed: [],
      unchanged: 0,
      empty: 0,
      refused: [],
    };
    const writes: Extract<Verdict, { kind: "write" }>[] = [];
    const nameWrites: Extract<Verdict, { kind: "name" }>[] = [];
    for (const u of units) {
      const name = names.get(u.unit);
      const verdict = name ? judgeName(u, name) : judge(u, u.questionId === null ? undefined : byId.get(u.questionId));
      if (verdict.kind === "refused") report.refused.push(verdict.refusal);
      else if (verdict.kind === "empty") report.empty += 1;
      else if (verdict.kind === "name") {
        if (sameName(verdict)) report.unchanged += 1;
        else {
          nameWrites.push(verdict);
          report.changed.push({ unit: u.unit, question_id: null, status: verdict.body.status });
        }
      } else if (same(verdict.question, verdict)) report.unchanged += 1;
      else {
        writes.push(verdict);
        report.changed.push({ unit: u.unit, question_id: verdict.question.id, status: verdict.body.status });
      }
    }
    if (dryRun || writes.length + nameWrites.length === 0) return report;
    const now = clock.now();
    for (const w of nameWrites) await writeNameTranslation(tx, actor, w.name, lang, w.body, now, { format });
    for (const w of writes) {
      const values = {
        text: w.body.text,
        answers: w.body.answers,
        explanation: w.explanation,
        hint: w.body.hint,
        status: w.body.status,
        sourceHash: w.question.version,
        updatedAt: now,
        updatedBy: actor.id,
      };
      await storeTranslation(tx, w.question.id, lang, values);
    }
    // One audit entry per questionnaire changed, in its facility (null: common content).
    for (const qn of qns) {
      const ids = writes.filter((w) => w.question.questionnaireId === qn.id).map((w) => w.question.id);
      if (ids.length === 0) continue;
      await recordAudit(
        tx,
        {
          kind: "content.updated",
          actor,
          facilityId: qn.facilityId,
          data: { item: "question-translations", questionnaire: qn.id, lang, format, ids },
        },
        now,
      );
    }
    return report;
  });
}
