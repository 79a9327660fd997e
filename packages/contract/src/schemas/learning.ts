import { z } from "zod";
import { QuizFinishedKey, QuizFinishedLinkKey } from "../messages";
import { REVOCATION_REASONS } from "../rules/certificate-status";
import { CONTENT_LANGUAGE_PATTERN } from "../rules/translations";
import { BodyId, Id } from "./common";

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];
const QuizFinishedMessage = z.enum(values(QuizFinishedKey));
const QuizFinishedLinkText = z.enum(values(QuizFinishedLinkKey));

/** A certificate's revocation (issue 29): when, and why; it stays in the history, marked. */
export const CertificateRevocation = z
  .object({ at: z.string(), reason: z.enum(REVOCATION_REASONS) })
  .meta({ id: "CertificateRevocation" });
export type CertificateRevocation = z.infer<typeof CertificateRevocation>;

export const CertificateRef = z
  .object({
    id: z.number().int(),
    acquired_at: z.string(),
    expires_at: z.string(),
    /** false once expired: the certificate is history, not proof. */
    active_working_cert: z.boolean(),
    /** Set when the certificate was revoked: it counts nowhere, and only the history shows it. */
    revoked: CertificateRevocation.nullable().optional(),
  })
  .meta({ id: "CertificateRef" });
export type CertificateRef = z.infer<typeof CertificateRef>;

/** Counts: correct answers / questions of the assigned trainings (ARCHITECTURE decisions 3, 6). */
export const Topic = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /**
     * The language of \`name\` (issue 31): a published, current translation's in the learner's
     * content language, else "de" (the original).
     */
    name_lang: z.string(),
    icon: z.string(),
    color: z.string(),
    trainings: z.array(z.number().int()),
    count: z.number().int(),
    total: z.number().int(),
    question_count: z.number().int(),
    question_total: z.number().int(),
    certificate_count: z.number().int(),
    certificate_total: z.number().int(),
    disabled: z.boolean(),
  })
  .meta({ id: "Topic" });
export type Topic = z.infer<typeof Topic>;

export const Training = z
  .object({
    id: z.number().int(),
    topic_id: z.number().int(),
    name: z.string(),
    /**
     * The language of \`name\` (issue 31): a published, current translation's in the learner's
     * content language, else "de" (the original).
     */
    name_lang: z.string(),
    icon: z.string(),
    description: z.string().nullable(),
    certificate: CertificateRef.nullable(),
    count: z.number().int(),
    total: z.number().int(),
    disabled: z.boolean(),
    passive: z.boolean(),
    /** Questionnaires of the training. */
    questionnaires: z.number().int(),
    points: z.number().int(),
    validity_months: z.number().int(),
    wiki_link: z.string().nullable(),
    /** The law that makes it mandatory (content); the app shows it with show-legal-compliance. */
    legal_basis: z.string().nullable(),
    /** Certificate within 30 days of expiry or expired: the questionnaires are open again. */
    renewal: z.boolean(),
  })
  .meta({ id: "Training" });
export type Training = z.infer<typeof Training>;

export const Questionnaire = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /**
     * The language of \`name\` (issue 31): a published, current translation's in the learner's
     * content language, else "de" (the original).
     */
    name_lang: z.string(),
    count: z.number().int(),
    total: z.number().int(),
    disabled: z.boolean(),
    /** Finished and may be repeated for practice (allow-make-questionnaires-again). */
    editable: z.boolean(),
    finished: z.boolean(),
    link: z.string().nullable(),
    /** package, common (written in the app) or facility (this facility's own, issue 16): the list marks the facility's own. */
    origin: z.enum(["package", "common", "facility"]),
    /** The caller may change it in authoring: the list shows an edit button. */
    can_edit: z.boolean(),
  })
  .meta({ id: "Questionnaire" });
export type Questionnaire = z.infer<typeof Questionnaire>;

export const TrainingDetail = z
  .object({ topic: Topic, training: Training, questionnaires: z.array(Questionnaire) })
  .meta({ id: "TrainingDetail" });
export type TrainingDetail = z.infer<typeof TrainingDetail>;

export const TopicDetail = z.object({ topic: Topic, trainings: z.array(Training) }).meta({ id: "TopicDetail" });
export type TopicDetail = z.infer<typeof TopicDetail>;

export const QuestionMedia = z
  .object({ type: z.enum(["image", "video"]), id: z.number().int() })
  .meta({ id: "QuestionMedia" });

/**
 * The next open question. Nothing in it reveals the right answers: explanation and hint are
 * null until the answer is posted (ARCHITECTURE decision 3).
 */
export const Question = z
  .object({
    id: z.number().int(),
    text: z.string(),
    type: z.enum(["single", "multiple"]),
    answers: z.array(z.object({ id: z.number().int(), text: z.string() }).strict()),
    media: z.null(),
    explanation: z.null(),
    hint: z.null(),
    round: z.number().int(),
    count: z.number().int(),
    total: z.number().int(),
    /** The language of the text and the answers: a published translation's, else "de" (the original). */
    lang: z.string(),
  })
  .meta({ id: "Question" });
export type Question = z.infer<typeof Question>;

export const NextQuestion = z
  .object({ question: Question.nullable(), count: z.number().int(), total: z.number().int() })
  .meta({ id: "NextQuestion" });
export type NextQuestion = z.infer<typeof NextQuestion>;

export const AnswerRequest = z.array(Id).min(1).max(10).meta({ id: "AnswerRequest" });

/**
 * The answer POST's optional Idempotency-Key header (issue 30): a key the client makes for one
 * answer and sends again with every retry of it. The same key with the same request gets the first
 * answer again and records nothing twice (on any server); with another request it is refused (409).
 * 8 to 128 letters, digits and `._:-` (a UUID or a hex string fits).
 */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const IdempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{8,128}$/, "8 to 128 letters, digits and ._:-")
  .meta({ id: "IdempotencyKey" });
export const AnswerHeaders = z.looseObject({ [IDEMPOTENCY_KEY_HEADER]: IdempotencyKey.optional() });

export const Finished = z
  .object({
    success: z.boolean(),
    /** An i18n key of the catalogue (messages.ts) the client translates, with `values`. */
    message: QuizFinishedMessage,
    values: z.record(z.string(), z.union([z.string(), z.number()])),
    link: z.object({ href: z.string(), text: QuizFinishedLinkText }).nullable(),
  })
  .meta({ id: "Finished" });
export type Finished = z.infer<typeof Finished>;

/** What a learner's explanation view shows of their own help request for a question. */
export const OwnHelp = z
  .object({
    /** An open request of theirs is waiting. */
    open: z.boolean(),
    replies: z.array(z.object({ text: z.string(), by: z.string(), at: z.string() })),
  })
  .meta({ id: "OwnHelp" });
export type OwnHelp = z.infer<typeof OwnHelp>;

export const AnswerResult = z
  .object({
    answers_correct: z.array(z.number().int()),
    is_correct: z.boolean(),
    explanation: z.string(),
    hint: z.string().nullable(),
    media: QuestionMedia.nullable(),
    topic: Topic,
    finished: Finished.nullable(),
    count: z.number().int(),
    total: z.number().int(),
    /** The learner's own help request about this question and the replies they got. */
    help: OwnHelp,
    /** The language of the explanation and the hint (as the question's). */
    lang: z.string(),
  })
  .meta({ id: "AnswerResult" });
export type AnswerResult = z.infer<typeof AnswerResult>;

/**
 * The quiz's query: `practice=true` repeats a finished questionnaire without touching counts or
 * certificates; `lang`, the content language wanted (issue 31) — a published,
 * current translation of the whole question in it, else the German original; `de` asks for the
 * original. Without it, the learner's interface language.
 */
export const QuizQuery = z
  .object({
    practice: z.enum(["true", "false"]).optional(),
    lang: z.string().regex(CONTENT_LANGUAGE_PATTERN, "a language code such as de, en, tr").optional(),
  })
  .strict();

export const TopicParams = z.object({ id: Id }).strict();
export const TrainingParams = z.object({ topic: Id, training: Id }).strict();
export const QuestionnaireParams = z.object({ topic: Id, training: Id, q: Id }).strict();
export const QuestionParams = z.object({ topic: Id, training: Id, q: Id, question: Id }).strict();

export const UserProgress = z
  .object({
    question_count: z.number().int(),
    question_total: z.number().int(),
    certificate_count: z.number().int(),
    certificate_total: z.number().int(),
    points: z.number().int(),
    topic_progress: z.array(Topic),
    training_progress: z.array(
      z.object({
        id: z.number().int(),
        topic_id: z.number().int(),
        name: z.string(),
        icon: z.string(),
        passive: z.boolean(),
        points: z.number().int(),
        certificate: CertificateRef.nullable(),
        /**
         * The training's earlier certificates (renewals keep them), newest first; each downloads
         * like `certificate` through /progress/export/certificate?id=.
         */
        earlier_certificates: z.array(CertificateRef),
        /**
         * Where learning this training goes on: its first questionnaire not yet finished (the
         * first one when all are); null when the learner has no questionnaire of it.
         */
        next_questionnaire_id: z.number().int().nullable(),
      }),
    ),
    /**
     * Certificates of a partner's external courses (newest first, every one kept): download
     * through /progress/export/certificate?source=partner&id=.
     */
    partner_certificates: z.array(
      z.object({
        id: z.number().int(),
        course_name: z.string(),
        training_name: z.string(),
        filename: z.string(),
        acquired_at: z.string(),
      }),
    ),
  })
  .meta({ id: "UserProgress" });
export type UserProgress = z.infer<typeof UserProgress>;

export const ContentVersion = z.object({ version: z.string().nullable() }).meta({ id: "ContentVersion" });
export const HelpRequestCreate = z.object({ question_id: BodyId }).strict().meta({ id: "HelpRequestCreate" });
export const HelpRequestCreated = z.object({ id: z.number().int() }).meta({ id: "HelpRequestCreated" });
