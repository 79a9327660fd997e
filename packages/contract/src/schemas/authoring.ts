import { z } from "zod";
import {
  CONTENT_LIMITS,
  CONTENT_ORIGINS,
  normalizeLegalBasis,
  QUESTION_TYPES,
  questionProblems,
} from "../rules/content";
import { CONTENT_LANGUAGE_PATTERN, NAME_TRANSLATION_KINDS, TRANSLATION_STATUSES } from "../rules/translations";
import { BodyId, Id, RequiredText, Str, Text } from "./common";

/*
 * Authoring (issue 16): administrators write questionnaires for their facility, content
 * managers (and superchris) edit common content, in the app.
 *
 * Questionnaires are draft (invisible to learners) or published. A facility questionnaire is
 * seen, learnt and counted only in its facility (elsewhere it does not exist: 1006).
 *
 * Publishing a questionnaire into a training, or adding a question to a published one, makes it
 * part of that training for its learners from then on: a learner holding a valid certificate
 * keeps it and meets the new content in the next renewal (30 days before expiry); a learner
 * without a certificate has to answer it before the training is passed.
 *
 * Question versions: editing the text, type or answers of a question that learners have
 * answered keeps the old question (and the answers past attempts chose) as a superseded version
 * and writes a new version. A right answer given to an earlier version still counts, so
 * nobody who finished is reset. A learner in the middle of the questionnaire keeps every answer
 * given so far: questions answered right stay answered (in every version), questions not yet
 * answered right are asked in their new version. An answer sent for the version that was on
 * screen while the question was changed is refused with 1007 (question not found); the quiz
 * then shows the new version. Changing only the explanation, hint or media changes no meaning
 * and is made in place.
 */

export const ContentOriginSchema = z.enum(CONTENT_ORIGINS);
export const QuestionnaireStatus = z.enum(["draft", "published"]);
export type QuestionnaireStatus = z.infer<typeof QuestionnaireStatus>;

export const QuestionMediaRef = z.object({ type: z.enum(["image", "video"]), id: BodyId }).strict();
export type QuestionMediaRef = z.infer<typeof QuestionMediaRef>;

const L = CONTENT_LIMITS;

/** A question as the editor sends it; the contract's rules (rules/content.ts) decide validity. */
export const AuthoringQuestionInput = z
  .object({
    type: z.enum(QUESTION_TYPES),
    text: Text(L.questionText),
    answers: z.array(z.object({ text: Text(L.answerText), correct: z.boolean() }).strict()).max(L.answersMax + 4),
    /** HTML; sanitised when stored (no script survives). */
    explanation: Str(L.explanation * 2).transform((s) => s.normalize("NFC").trim()),
    hint: Text(L.hint).nullable(),
    media: QuestionMediaRef.nullable(),
  })
  .strict()
  .superRefine((q, ctx) => {
    for (const p of questionProblems(q))
      ctx.addIssue({ code: "custom", path: p.path, message: `${p.code}: ${p.message}` });
  });
// No component id: its transform makes input and output differ, which the OpenAPI generator
// refuses under one name (the document is served at /api/docs and checked in route.test).
export type AuthoringQuestionInput = z.infer<typeof AuthoringQuestionInput>;

export const AuthoringQuestion = z
  .object({
    id: z.number().int(),
    version: z.number().int(),
    origin: ContentOriginSchema,
    type: z.enum(QUESTION_TYPES),
    text: z.string(),
    answers: z.array(z.object({ id: z.number().int(), text: z.string(), correct: z.boolean() })),
    explanation: z.string(),
    hint: z.string().nullable(),
    media: QuestionMediaRef.nullable(),
    /** Learners answered this version: a change of text, type or answers makes a new version. */
    answered: z.boolean(),
  })
  .meta({ id: "AuthoringQuestion" });
export type AuthoringQuestion = z.infer<typeof AuthoringQuestion>;

export const AuthoringQuestionnaire = z
  .object({
    id: z.number().int(),
    topic_id: z.number().int(),
    training_id: z.number().int(),
    training_name: z.string(),
    name: z.string(),
    origin: ContentOriginSchema,
    facility_id: z.number().int().nullable(),
    status: QuestionnaireStatus,
    /** May the caller change it (supervisors and other facilities' administrators read only). */
    editable: z.boolean(),
    /** Learners (in the questionnaire's scope) holding a valid certificate of the training. */
    certificates_held: z.number().int(),
    questions: z.array(AuthoringQuestion),
  })
  .meta({ id: "AuthoringQuestionnaire" });
export type AuthoringQuestionnaire = z.infer<typeof AuthoringQuestionnaire>;

export const AuthoringQuestionnaireSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  origin: ContentOriginSchema,
  facility_id: z.number().int().nullable(),
  status: QuestionnaireStatus,
  questions: z.number().int(),
  editable: z.boolean(),
});

export const AuthoringTree = z
  .object({
    /** May the caller create common topics, trainings and questionnaires (content managers). */
    edits_common: z.boolean(),
    /** May the caller add questionnaires for a facility (administrators, for theirs). */
    facility_id: z.number().int().nullable(),
    topics: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        icon: z.string(),
        color: z.string(),
        origin: ContentOriginSchema,
        trainings: z.array(
          z.object({
            id: z.number().int(),
            name: z.string(),
            icon: z.string(),
            origin: ContentOriginSchema,
            passive: z.boolean(),
            validity_months: z.number().int(),
            points: z.number().int(),
            wiki_link: z.string().nullable(),
            legal_basis: z.string().nullable(),
            questionnaires: z.array(AuthoringQuestionnaireSummary),
          }),
        ),
      }),
    ),
  })
  .meta({ id: "AuthoringTree" });
export type AuthoringTree = z.infer<typeof AuthoringTree>;

export const QuestionnaireCreate = z
  .object({ training_id: BodyId, name: RequiredText(L.name) })
  .strict()
  .meta({ id: "QuestionnaireCreate" });
export type QuestionnaireCreate = z.infer<typeof QuestionnaireCreate>;

export const QuestionnairePatch = z
  .object({
    name: RequiredText(L.name).optional(),
    /** Every live question id of the questionnaire, in the new order. */
    question_order: z.array(BodyId).max(L.questionsMax).optional(),
  })
  .strict()
  .meta({ id: "QuestionnairePatch" });
export type QuestionnairePatch = z.infer<typeof QuestionnairePatch>;

export const QuestionSaved = z
  .object({
    questionnaire: AuthoringQuestionnaire,
    question_id: z.number().int(),
    /** The question was answered and its meaning changed: a new version was written. */
    versioned: z.boolean(),
  })
  .meta({ id: "QuestionSaved" });
export type QuestionSaved = z.infer<typeof QuestionSaved>;

export const AuthoringMediaResult = z
  .object({ type: z.enum(["image", "video"]), id: z.number().int(), src: z.string() })
  .meta({ id: "AuthoringMediaResult" });
export type AuthoringMediaResult = z.infer<typeof AuthoringMediaResult>;

const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be #rrggbb");
const IconName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "an icon name");

export const TopicWrite = z
  .object({ name: RequiredText(L.name), icon: IconName, color: Color })
  .strict()
  .meta({ id: "TopicWrite" });
export type TopicWrite = z.infer<typeof TopicWrite>;

export const TrainingWrite = z
  .object({
    topic_id: BodyId,
    name: RequiredText(L.name),
    icon: IconName,
    validity_months: z.number().int().min(L.validityMonthsMin).max(L.validityMonthsMax),
    passive: z.boolean(),
    points: z.number().int().min(0).max(L.pointsMax),
    wiki_link: z
      .string()
      .trim()
      .max(L.wikiLink)
      .regex(/^\/wiki(\/[^\s]*)?$/, "must be a path under /wiki")
      .nullable(),
    /**
     * The law that makes the training mandatory, e.g. "§§ 42, 43 IfSG" (shown with
     * show-legal-compliance); absent, null or blank: none.
     */
    legal_basis: Str(L.legalBasis * 4)
      .transform((s) => normalizeLegalBasis(s))
      .pipe(z.string().max(L.legalBasis).nullable())
      .nullable()
      .optional(),
  })
  .strict()
  .meta({ id: "TrainingWrite" });
export type TrainingWrite = z.infer<typeof TrainingWrite>;

export const AuthoringQuestionnaireParams = z.object({ id: Id }).strict();

export const AuthoringSaved = z.object({ id: z.number().int() }).meta({ id: "AuthoringSaved" });
export type AuthoringSaved = z.infer<typeof AuthoringSaved>;

/* ---------- question banks of other LMSs (Moodle XML, GIFT) ---------- */

/** A bank's text, embedded images (base64) included. */
export const QUESTION_BANK_MAX_CHARS = 10 * 1024 * 1024;

/**
 * A Moodle bank's categories: all questions into the questionnaire (`flatten`, the default), or
 * one new questionnaire per category in the same training (`questionnaires`; questions without a
 * category go into the questionnaire the import was started from).
 */
export const BANK_CATEGORY_MODES = ["flatten", "questionnaires"] as const;
export type BankCategoryMode = (typeof BANK_CATEGORY_MODES)[number];

export const QuestionBankImportBody = z
  .object({
    format: z.enum(["moodle-xml", "gift"]),
    text: z.string().min(1).max(QUESTION_BANK_MAX_CHARS),
    categories: z.enum(BANK_CATEGORY_MODES).optional(),
  })
  .strict()
  .meta({ id: "QuestionBankImportBody" });
export type QuestionBankImportBody = z.infer<typeof QuestionBankImportBody>;

export const QuestionBankPreview = z
  .object({
    /** What will be imported, as it will be stored (explanation sanitised). */
    questions: z.array(
      z.object({
        number: z.number().int(),
        type: z.enum(QUESTION_TYPES),
        text: z.string(),
        answers: z.array(z.object({ text: z.string(), correct: z.boolean() })),
        explanation: z.string(),
        hint: z.string().nullable(),
        /** The file had no explanation: one naming the right answers is written. */
        explanation_generated: z.boolean(),
        /** The picture embedded in the file that becomes the question's media (checked as an upload). */
        image: z.object({ name: z.string(), type: z.enum(["image", "video"]), size: z.number().int() }).nullable(),
        /** The source's category ("Hygiene / Händehygiene"), or null. */
        category: z.string().nullable(),
      }),
    ),
    /** The categories of the questions that will be imported, in the file's order, with their counts. */
    categories: z.array(z.object({ name: z.string(), count: z.number().int() })),
    /** What cannot be imported, named with the reason (an unsupported question type, a rule broken …). */
    skipped: z.array(
      z.object({
        number: z.number().int(),
        name: z.string(),
        source_type: z.string(),
        /** A reason of the parser (unsupported-type, no-right-answer, …) or a rule of rules/content.ts. */
        reason: z.string(),
        detail: z.string().nullable(),
      }),
    ),
    /** Things changed on the way (formatting removed, media not imported, …). */
    notes: z.array(z.object({ code: z.string(), number: z.number().int().nullable(), detail: z.string().nullable() })),
  })
  .meta({ id: "QuestionBankPreview" });
export type QuestionBankPreview = z.infer<typeof QuestionBankPreview>;

export const QuestionBankImported = z
  .object({
    questionnaire: AuthoringQuestionnaire,
    imported: z.number().int(),
    /** With categories=questionnaires: the questionnaires made, one per category, as drafts. */
    created: z.array(z.object({ id: z.number().int(), name: z.string(), count: z.number().int() })),
  })
  .meta({ id: "QuestionBankImported" });
export type QuestionBankImported = z.infer<typeof QuestionBankImported>;

/* ---------- translations beside the German original (issue 31) ---------- */

const LanguageCode = z.string().regex(CONTENT_LANGUAGE_PATTERN, "a language code such as en, tr, pl");

export const QuestionTranslationParams = z.object({ id: Id, lang: LanguageCode }).strict();

/**
 * A question's translation into one content language: the text, every live answer of the question
 * by its id (all of them), the explanation (HTML, stored sanitised) and the hint, with its status.
 */
export const QuestionTranslationWrite = z
  .object({
    text: RequiredText(L.questionText),
    answers: z
      .array(z.object({ id: BodyId, text: RequiredText(L.answerText) }).strict())
      .min(L.answersMin)
      .max(L.answersMax),
    explanation: RequiredText(L.explanation),
    hint: Text(L.hint).nullable(),
    status: z.enum(TRANSLATION_STATUSES),
  })
  .strict()
  .meta({ id: "QuestionTranslationWrite" });
export type QuestionTranslationWrite = z.infer<typeof QuestionTranslationWrite>;

export const QuestionTranslation = z
  .object({
    lang: z.string(),
    status: z.enum(TRANSLATION_STATUSES),
    /** The German text changed since (or an answer was added or removed): learners get German. */
    outdated: z.boolean(),
    text: z.string(),
    answers: z.array(z.object({ id: z.number().int(), text: z.string() })),
    explanation: z.string(),
    hint: z.string().nullable(),
    updated_at: z.string(),
  })
  .meta({ id: "QuestionTranslation" });
export type QuestionTranslation = z.infer<typeof QuestionTranslation>;

export const QuestionTranslations = z
  .object({
    question_id: z.number().int(),
    /** The installation's content languages (CONTENT_LANGUAGES), German (the source) not among them. */
    content_languages: z.array(z.string()),
    translations: z.array(QuestionTranslation),
  })
  .meta({ id: "QuestionTranslations" });
export type QuestionTranslations = z.infer<typeof QuestionTranslations>;

/**
 * What the editor holds of a translation when it asks for a suggestion (issue 31), saved or not:
 * the fields given and not empty are kept as the person wrote them; only the others are filled.
 */
export const QuestionTranslationDraft = z
  .object({
    text: Text(L.questionText).optional(),
    answers: z
      .array(z.object({ id: BodyId, text: Text(L.answerText) }).strict())
      .max(L.answersMax)
      .optional(),
    explanation: Text(L.explanation).optional(),
    hint: Text(L.hint).nullable().optional(),
  })
  .strict()
  .meta({ id: "QuestionTranslationDraft" });
export type QuestionTranslationDraft = z.infer<typeof QuestionTranslationDraft>;

/** A machine's suggestion: the fields it filled (text, a<answer id>, explanation, hint) and the translations after. */
export const QuestionTranslationSuggestion = QuestionTranslations.extend({ filled: z.array(z.string()) }).meta({
  id: "QuestionTranslationSuggestion",
});
export type QuestionTranslationSuggestion = z.infer<typeof QuestionTranslationSuggestion>;

/* ---------- translated names of topics, trainings and questionnaires (issue 31) ---------- */

export const NameTranslationParams = z
  .object({ kind: z.enum(NAME_TRANSLATION_KINDS), id: Id, lang: LanguageCode })
  .strict();

/** A name's translation into one content language, with its status. */
export const NameTranslationWrite = z
  .object({ name: RequiredText(L.name), status: z.enum(TRANSLATION_STATUSES) })
  .strict()
  .meta({ id: "NameTranslationWrite" });
export type NameTranslationWrite = z.infer<typeof NameTranslationWrite>;

/** A topic's, training's or questionnaire's German name and its translations. */
export const NameTranslations = z
  .object({
    kind: z.enum(NAME_TRANSLATION_KINDS),
    id: z.number().int(),
    /** The German name (binding). */
    name: z.string(),
    /** The caller may write its translations (topics and trainings: Super-Admins). */
    editable: z.boolean(),
    translations: z.array(
      z.object({
        lang: z.string(),
        name: z.string(),
        status: z.enum(TRANSLATION_STATUSES),
        /** The German name changed since: learners get German. */
        outdated: z.boolean(),
        updated_at: z.string(),
      }),
    ),
  })
  .meta({ id: "NameTranslations" });
export type NameTranslations = z.infer<typeof NameTranslations>;

/** The names a training's learners see: its topic's, its own and its questionnaires' the caller may read. */
export const TrainingNameTranslations = z
  .object({
    training_id: z.number().int(),
    content_languages: z.array(z.string()),
    items: z.array(NameTranslations),
  })
  .meta({ id: "TrainingNameTranslations" });
export type TrainingNameTranslations = z.infer<typeof TrainingNameTranslations>;

/* ---------- a training's translations as a file for translators (issue 31) ---------- */

/** XLIFF 2.0 for translation tools, CSV (UTF-8, semicolons) for a spreadsheet. */
export const TRANSLATION_FILE_FORMATS = ["xliff", "csv"] as const;
export type TranslationFileFormat = (typeof TRANSLATION_FILE_FORMATS)[number];

/** A translation file is text: at most 10 MiB. */
export const TRANSLATION_FILE_MAX_BYTES = 10 * 1024 * 1024;

export const TrainingTranslationsExportQuery = z
  .object({ lang: LanguageCode, format: z.enum(TRANSLATION_FILE_FORMATS), token: z.string().optional() })
  .strict();
export type TrainingTranslationsExportQuery = z.infer<typeof TrainingTranslationsExportQuery>;

export const TrainingTranslationsImportQuery = z
  .object({
    lang: LanguageCode,
    format: z.enum(TRANSLATION_FILE_FORMATS),
    /** true: say what the import would do, write nothing. */
    dry_run: z.enum(["true", "false"]).optional(),
  })
  .strict();
export type TrainingTranslationsImportQuery = z.infer<typeof TrainingTranslationsImportQuery>;

/**
 * Why a unit (one question) of a translation file was not taken: its id is not a question of the
 * training the caller may edit; the German changed since the file was made (its version differs);
 * the explanation's markup is broken; some fields are translated and others not; or a text is
 * too long or a status unknown.
 */
export const TRANSLATION_IMPORT_REFUSALS = [
  "unknown-id",
  "outdated-source",
  "broken-markup",
  "incomplete",
  "invalid",
] as const;
export type TranslationImportRefusal = (typeof TRANSLATION_IMPORT_REFUSALS)[number];

export const TranslationImportReport = z
  .object({
    dry_run: z.boolean(),
    lang: z.string(),
    format: z.enum(TRANSLATION_FILE_FORMATS),
    /**
     * The units whose translation the import writes (or would write), with the status it gets: a
     * question (`q<id>`, question_id set) or a name (`topic<id>`, `training<id>`, `questionnaire<id>`).
     */
    changed: z.array(
      z.object({ unit: z.string(), question_id: z.number().int().nullable(), status: z.enum(TRANSLATION_STATUSES) }),
    ),
    /** Units whose translation is already as the file has it. */
    unchanged: z.number().int(),
    /** Units without any translated text: left as they are. */
    empty: z.number().int(),
    refused: z.array(
      z.object({
        /** The unit's id in the file (q<question id>, or a name's: training<id> …). */
        unit: z.string(),
        question_id: z.number().int().nullable(),
        reason: z.enum(TRANSLATION_IMPORT_REFUSALS),
        detail: z.string(),
      }),
    ),
  })
  .meta({ id: "TranslationImportReport" });
export type TranslationImportReport = z.infer<typeof TranslationImportReport>;
