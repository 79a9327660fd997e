import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** A file attached to a queued mail; text content only (iCalendar), kept as it is sent. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const facilities = pgTable(
  "facilities",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("facilities_name_lower_uq").on(sql`lower(${t.name})`)],
);

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    /** As the user or an administrator wrote it (NFC); shown. */
    login: text("login").notNull(),
    /**
     * The login in the one form it is stored, compared and searched by (contract `loginKey`:
     * NFKC + a locale-independent lower case), unique. Written by JavaScript, never by lower().
     */
    loginKey: text("login_key").notNull(),
    name: text("name").notNull(),
    surname: text("surname").notNull(),
    salutation: text("salutation").notNull().default("-"),
    email: text("email"),
    facilityId: integer("facility_id").references(() => facilities.id, { onDelete: "restrict" }),
    passwordHash: text("password_hash").notNull(),
    showHelpRedirect: boolean("show_help_redirect").notNull().default(true),
    passive: boolean("passive").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Raised on password change: tokens issued before it are refused. */
    tokenVersion: integer("token_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The day the person left (issue 28): deleting a user or an import's deleteNotIncludedUsers
     * archives them. An archived person cannot log in, is in no active list, count or licence
     * limit and gets no mail; their training record stays until the retention job erases them.
     */
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    /** Who archived them (kept as a bare id: the audit trail holds the rest). */
    archivedBy: integer("archived_by"),
    /** When the retention job or an erasure request anonymised the person (name, login, e-mail gone). */
    erasedAt: timestamp("erased_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("users_login_key_uq").on(t.loginKey),
    index("users_facility_idx").on(t.facilityId),
    index("users_archived_idx").on(t.archivedAt).where(sql`${t.archivedAt} is not null`),
  ],
);

/** The five roles of ARCHITECTURE decision 1, as rows so a user can hold several. */
export const roles = pgTable("roles", {
  name: text("name").primaryKey(),
});

export const userRoles = pgTable(
  "user_roles",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role")
      .notNull()
      .references(() => roles.name),
    /**
     * Who gave it (issue 32): 'manual' (an administrator, an import, the start) or 'sso' (a
     * provider's role mapping, re-synchronised at each of the person's single sign-on logins,
     * which never removes a role given by hand).
     */
    source: text("source").notNull().default("manual"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] }), index("user_roles_role_idx").on(t.role)],
);

/**
 * A person's identity at a single sign-on provider (issue 32): the provider's id and the subject
 * its configured claims make (e.g. Entra's tid and oid), linked to one CareCampus user.
 */
export const ssoIdentities = pgTable(
  "sso_identities",
  {
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index("sso_identities_user_idx").on(t.userId)],
);

export const preferences = pgTable("preferences", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  avatar: text("avatar").notNull().default("female"),
  language: text("language").notNull().default("de"),
  /** null: the user has not chosen, the installation's theme (THEME) applies. */
  theme: text("theme"),
  /**
   * The language the user takes trainings in (issue 31): a content language (CONTENT_LANGUAGES)
   * or "de" for the original; null: the interface language.
   */
  contentLanguage: text("content_language"),
});

/** Areas of focus ("Tätigkeitsschwerpunkte"). */
export const activities = pgTable(
  "activities",
  { id: serial("id").primaryKey(), name: text("name").notNull() },
  (t) => [uniqueIndex("activities_name_lower_uq").on(sql`lower(${t.name})`)],
);

/** Job qualifications. */
export const qualifications = pgTable(
  "qualifications",
  { id: serial("id").primaryKey(), name: text("name").notNull() },
  (t) => [uniqueIndex("qualifications_name_lower_uq").on(sql`lower(${t.name})`)],
);

export const userActivities = pgTable(
  "user_activities",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    activityId: integer("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.activityId] })],
);

export const userQualifications = pgTable(
  "user_qualifications",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    qualificationId: integer("qualification_id")
      .notNull()
      .references(() => qualifications.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.qualificationId] })],
);

/** In-app notifications (spec §3); `type` is e.g. CERTIFICATE_EXPIRES or PASSWORD_RESET_REQUEST. */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    customMessage: jsonb("custom_message").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_idx").on(t.userId)],
);

/** Key/value facts about the installation (content version, first-start marker, …). */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/* ---------- learning content (imported from content packages) ---------- */

/** Icons, images and videos of the content, kept in the database so servers stay stateless. */
export const media = pgTable(
  "media",
  {
    id: serial("id").primaryKey(),
    /** icon: the icon name; image/video: the file name in the package's media folder. */
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    mime: text("mime").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    /** Where the bytes are (storage/): the key of its chunks in media_chunks. */
    storageKey: text("storage_key").notNull().unique(),
    /** A wiki image of a facility's page: served only within that facility (null: everyone's). */
    facilityId: integer("facility_id").references(() => facilities.id, { onDelete: "cascade" }),
  },
  (t) => [unique("media_kind_name_uq").on(t.kind, t.name)],
);

/**
 * The bytes of media files (storage/database.ts), cut into chunks of STORAGE_CHUNK_BYTES (the
 * last one shorter), so that no query writes or reads a whole video. An upload writes its chunks
 * before there is a media row for them; the triggers of migration 0017 delete a row's chunks with
 * it, and the storage-cleanup job the chunks of uploads that never got one.
 */
export const mediaChunks = pgTable(
  "media_chunks",
  {
    key: text("key").notNull(),
    seq: integer("seq").notNull(),
    data: bytea("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);

export const topics = pgTable("topics", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
  icon: text("icon").notNull(),
  color: text("color").notNull(),
  position: integer("position").notNull(),
  retired: boolean("retired").notNull().default(false),
  /** package | common (ContentOrigin): an import changes and retires only package content. */
  origin: text("origin").notNull().default("package"),
});

export const trainings = pgTable(
  "trainings",
  {
    id: serial("id").primaryKey(),
    key: text("key").notNull().unique(),
    topicId: integer("topic_id")
      .notNull()
      .references(() => topics.id),
    name: text("name").notNull(),
    icon: text("icon").notNull(),
    description: text("description"),
    validityMonths: integer("validity_months").notNull().default(12),
    points: integer("points").notNull().default(0),
    passive: boolean("passive").notNull().default(false),
    wikiLink: text("wiki_link"),
    /** The law that makes the training mandatory (show-legal-compliance), e.g. "§§ 42, 43 IfSG". */
    legalBasis: text("legal_basis"),
    retired: boolean("retired").notNull().default(false),
    /** package | common (ContentOrigin). */
    origin: text("origin").notNull().default("package"),
  },
  (t) => [index("trainings_topic_idx").on(t.topicId)],
);

export const questionnaires = pgTable(
  "questionnaires",
  {
    id: serial("id").primaryKey(),
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id),
    key: text("key").notNull(),
    name: text("name").notNull(),
    position: integer("position").notNull(),
    retired: boolean("retired").notNull().default(false),
    /** package | common | facility (ContentOrigin). */
    origin: text("origin").notNull().default("package"),
    /** A facility's own questionnaire (origin facility): seen and counted only in that facility. */
    facilityId: integer("facility_id").references(() => facilities.id),
    /** draft (invisible to learners) or published. Package content is published. */
    status: text("status").notNull().default("published"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
  },
  (t) => [
    unique("questionnaires_training_key_uq").on(t.trainingId, t.key),
    index("questionnaires_facility_idx").on(t.facilityId),
  ],
);

export const questions = pgTable(
  "questions",
  {
    id: serial("id").primaryKey(),
    questionnaireId: integer("questionnaire_id")
      .notNull()
      .references(() => questionnaires.id),
    key: text("key").notNull(),
    type: text("type").notNull(),
    text: text("text").notNull(),
    /** Sanitised HTML. */
    explanation: text("explanation").notNull(),
    hint: text("hint"),
    mediaId: integer("media_id").references(() => media.id),
    position: integer("position").notNull(),
    retired: boolean("retired").notNull().default(false),
    /** package | common | facility (ContentOrigin). */
    origin: text("origin").notNull().default("package"),
    /**
     * Versions of one question share questionnaire and key. Editing the text, type or answers
     * of a question someone answered keeps the old row (with its answers, which past attempts
     * name by id) as a superseded version and writes the next version (content/versions.ts).
     */
    version: integer("version").notNull().default(1),
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
  },
  (t) => [
    unique("questions_questionnaire_key_version_uq").on(t.questionnaireId, t.key, t.version),
    uniqueIndex("questions_current_uq").on(t.questionnaireId, t.key).where(sql`${t.supersededAt} is null`),
  ],
);

export const answers = pgTable(
  "answers",
  {
    id: serial("id").primaryKey(),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
    key: text("key").notNull(),
    text: text("text").notNull(),
    correct: boolean("correct").notNull(),
    position: integer("position").notNull(),
    retired: boolean("retired").notNull().default(false),
  },
  (t) => [unique("answers_question_key_uq").on(t.questionId, t.key)],
);

/* ---------- learning progress ---------- */

/**
 * One answer of a user to a question in a quiz round. `cycle` counts the certificates the
 * user already holds for the training (0 before the first, 1 in the first renewal, …).
 * The unique key makes a repeated or parallel post of the same answer count once.
 */
export const quizAttempts = pgTable(
  "quiz_attempts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    questionnaireId: integer("questionnaire_id")
      .notNull()
      .references(() => questionnaires.id),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
    cycle: integer("cycle").notNull(),
    round: integer("round").notNull(),
    correct: boolean("correct").notNull(),
    answerIds: integer("answer_ids").array().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique("quiz_attempts_once_uq").on(t.userId, t.questionnaireId, t.cycle, t.round, t.questionId),
    index("quiz_attempts_user_idx").on(t.userId, t.questionnaireId, t.cycle),
  ],
);

/**
 * Answers sent with an Idempotency-Key (issue 30): the first request's answer, kept so that the
 * same key sent again (a phone resending after a dropped connection, on any server) gets the same
 * answer and records nothing twice. `request` is a hash of what was asked (the question's path,
 * practice and the chosen answers): the same key with another request is refused. The limits job
 * deletes rows after ANSWER_KEY_DAYS.
 */
/**
 * A question's translation into a content language (issue 31), kept beside the German original,
 * which stays binding: the text, every live answer's text by answer id, the explanation and the
 * hint, with a status (draft, machine, reviewed, published) and the hash of the German fields it
 * translates (content/translations.ts): when the German changes, the translation is outdated.
 */
export const questionTranslations = pgTable(
  "question_translations",
  {
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    lang: text("lang").notNull(),
    text: text("text").notNull(),
    /** Every answer of the question it was written for: [{ id, text }]. */
    answers: jsonb("answers").$type<{ id: number; text: string }[]>().notNull(),
    /** Sanitised HTML. */
    explanation: text("explanation").notNull(),
    hint: text("hint"),
    status: text("status").notNull(),
    sourceHash: text("source_hash").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.lang] })],
);

/**
 * The translated name of a topic, a training or a questionnaire (issue 31; `kind`), beside the
 * German name, which stays binding: with a status and the hash of the German name it translates
 * (content/translations.ts nameHash). When the German name changes, the translation is outdated.
 * The item is named by kind and id (topics, trainings and questionnaires are retired, never
 * deleted while content refers to them).
 */
export const nameTranslations = pgTable(
  "name_translations",
  {
    kind: text("kind").notNull(),
    itemId: integer("item_id").notNull(),
    lang: text("lang").notNull(),
    name: text("name").notNull(),
    status: text("status").notNull(),
    sourceHash: text("source_hash").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.itemId, t.lang] }),
    check("name_translations_kind_ck", sql`${t.kind} in ('topic', 'training', 'questionnaire')`),
  ],
);

export const answerRequests = pgTable(
  "answer_requests",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    request: text("request").notNull(),
    response: jsonb("response").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("answer_requests_created_idx").on(t.createdAt)],
);

/** Every certificate ever issued (history); the newest per user and training is the active one. */
export const certificates = pgTable(
  "certificates",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id),
    acquiredAt: timestamp("acquired_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    points: integer("points").notNull(),
    /** Passive trainings: who marked it passed. */
    markedBy: integer("marked_by").references(() => users.id, { onDelete: "set null" }),
    verificationCode: text("verification_code").notNull().unique(),
    createdAt: createdAt(),
    /**
     * Revocation (issue 29): a state, never a deletion. A revoked certificate stays in the
     * history, marked; the verification page says revoked from this instant.
     */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Who revoked it (a bare id: the audit trail holds the rest). */
    revokedBy: integer("revoked_by"),
    /** issued_in_error | obtained_improperly | other (contract REVOCATION_REASONS). */
    revokeReason: text("revoke_reason"),
    /** Staff's note on the revocation (free text, optional). */
    revokeNote: text("revoke_note"),
  },
  (t) => [
    index("certificates_user_training_idx").on(t.userId, t.trainingId, t.acquiredAt),
    // The progress overview and the export read one topic's trainings for a whole facility;
    // migration 0005 adds INCLUDE (expires_at) so that read is index-only.
    index("certificates_training_user_idx").on(t.trainingId, t.userId, t.acquiredAt.desc()),
  ],
);

/**
 * A certificate of a partner provider's external course (docs/partner-contract.md), as the
 * partner issued it: its PDF kept here, every one of them (history). When the training is
 * configured so (EXTERNAL_COURSES_CERTIFY), `certificateId` is the training's own certificate
 * its completion issued, and that certificate's download is this PDF.
 */
export const partnerCertificates = pgTable(
  "partner_certificates",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The training the course was listed for. */
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id),
    courseId: text("course_id").notNull(),
    courseName: text("course_name").notNull(),
    /** The partner's id of the certificate: imported once. */
    partnerCertificateId: text("partner_certificate_id").notNull(),
    filename: text("filename").notNull(),
    content: bytea("content").notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }).notNull(),
    certificateId: integer("certificate_id").references(() => certificates.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("partner_certificates_once_uq").on(t.userId, t.partnerCertificateId),
    index("partner_certificates_user_training_idx").on(t.userId, t.trainingId),
    index("partner_certificates_certificate_idx").on(t.certificateId),
  ],
);

/**
 * A reply of staff to the learners who asked about a question. The author's name is kept with
 * it, so the facility can still show how a question was answered after the account is gone.
 */
export const helpReplies = pgTable(
  "help_replies",
  {
    id: serial("id").primaryKey(),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("help_replies_question_idx").on(t.questionId)],
);

/**
 * A user's request for help with an unclear question (spec §3 Help request). One open request
 * per learner and question (decision 19); handled ones are kept with who handled them, when,
 * and the reply the learner got.
 */
export const helpRequests = pgTable(
  "help_requests",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
    facilityId: integer("facility_id").references(() => facilities.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    handledAt: timestamp("handled_at", { withTimezone: true }),
    handledBy: integer("handled_by").references(() => users.id, { onDelete: "set null" }),
    replyId: integer("reply_id").references(() => helpReplies.id, { onDelete: "set null" }),
  },
  (t) => [
    index("help_requests_question_idx").on(t.questionId),
    uniqueIndex("help_requests_open_uq").on(t.userId, t.questionId).where(sql`${t.handledAt} is null`),
    index("help_requests_open_facility_idx").on(t.facilityId).where(sql`${t.handledAt} is null`),
  ],
);

/** A question a Super-Admin marked 'content needs fixing' from the help requests, for content work. */
export const questionContentFlags = pgTable("question_content_flags", {
  questionId: integer("question_id")
    .primaryKey()
    .references(() => questions.id, { onDelete: "cascade" }),
  note: text("note"),
  flaggedBy: integer("flagged_by").references(() => users.id, { onDelete: "set null" }),
  flaggedByName: text("flagged_by_name").notNull(),
  flaggedAt: timestamp("flagged_at", { withTimezone: true }).notNull(),
});

/**
 * The tutorial of /help (spec §2, §6), from the content package's tutorial/ folder: one row
 * per audience, page and language, its Markdown rendered to sanitised HTML at import.
 */
export const tutorialPages = pgTable(
  "tutorial_pages",
  {
    id: serial("id").primaryKey(),
    audience: text("audience").notNull(),
    key: text("key").notNull(),
    language: text("language").notNull(),
    position: integer("position").notNull(),
    title: text("title").notNull(),
    html: text("html").notNull(),
    /** The screenshot's media name (kind `<audience>-tutorial`), e.g. `quiz-de_2x`. */
    image: text("image"),
  },
  (t) => [unique("tutorial_pages_uq").on(t.audience, t.key, t.language)],
);

/* ---------- administration: training matrix, additional qualifications ---------- */

/**
 * A user's training matrix (spec §3, ARCHITECTURE decision 6). A user without a row here is
 * assigned every training; with one, exactly the trainings of `training_matrix_entries`.
 */
export const trainingMatrices = pgTable("training_matrices", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const trainingMatrixEntries = pgTable(
  "training_matrix_entries",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => trainingMatrices.userId, { onDelete: "cascade" }),
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.trainingId] })],
);

/** Additional (external) qualifications a facility records for its staff (spec §3). */
export const additionalQualifications = pgTable(
  "additional_qualifications",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    facilityId: integer("facility_id")
      .notNull()
      .references(() => facilities.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("additional_qualifications_facility_name_uq").on(t.facilityId, sql`lower(${t.name})`)],
);

export const userAdditionalQualifications = pgTable(
  "user_additional_qualifications",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    additionalQualificationId: integer("additional_qualification_id").notNull(),
  },
  (t) => [
    // Named here: the generated names would pass PostgreSQL's 63-character limit.
    primaryKey({ name: "user_additional_qualifications_pk", columns: [t.userId, t.additionalQualificationId] }),
    foreignKey({
      name: "user_additional_qualifications_aq_fk",
      columns: [t.additionalQualificationId],
      foreignColumns: [additionalQualifications.id],
    }).onDelete("cascade"),
  ],
);

/* ---------- certificate-expiry notices (the scheduled job of ARCHITECTURE decision 7) ---------- */

/**
 * The expiry stages (30, 7 and 0 days before) the job has dealt with, per certificate. Written
 * in the notifications' transaction, so a second run sends nothing twice. `notified` is false
 * for a stage passed over while the server was down: only the most urgent due stage is sent.
 */
export const certificateNotices = pgTable(
  "certificate_notices",
  {
    certificateId: integer("certificate_id")
      .notNull()
      .references(() => certificates.id, { onDelete: "cascade" }),
    stage: integer("stage").notNull(),
    notified: boolean("notified").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "certificate_notices_pk", columns: [t.certificateId, t.stage] })],
);

/**
 * The summary the administrators and supervisors of a facility get: one per stage and run day.
 * A later run on the same day adds to it instead of sending a second one.
 */
export const certificateNoticeSummaries = pgTable(
  "certificate_notice_summaries",
  {
    facilityId: integer("facility_id").notNull(),
    stage: integer("stage").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    certificateCount: integer("certificate_count").notNull(),
    firstExpiry: timestamp("first_expiry", { withTimezone: true }).notNull(),
  },
  (t) => [
    // Named here: the generated names come close to PostgreSQL's 63-character limit.
    primaryKey({ name: "certificate_notice_summaries_pk", columns: [t.facilityId, t.stage, t.day] }),
    foreignKey({
      name: "certificate_notice_summaries_facility_fk",
      columns: [t.facilityId],
      foreignColumns: [facilities.id],
    }).onDelete("cascade"),
  ],
);

/**
 * E-mails waiting to go out (the mail outbox), written in the transaction of what caused them.
 * The sender job claims due rows (status pending, or sending with a lapsed claim), hands them
 * to the SMTP server and marks them sent, or retries later with backoff until failed.
 * `next_attempt_at` is also the claim's end while a row is being sent.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    recipients: text("recipients").array().notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    /** pending | sending | sent | failed | skipped */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    /** Files sent with the mail (e.g. an event's .ics): [{filename, contentType, content}]. */
    attachments: jsonb("attachments").$type<MailAttachment[]>(),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt)],
);

/* ---------- training calendar (issue 'Training calendar') ---------- */

/**
 * A scheduled in-person training of one facility. All-day events are stored from midnight to
 * midnight in TIME_ZONE, End exclusive (as in iCalendar), so every query compares instants.
 * `sequence` counts changes: calendar apps replace an event only when it grows (RFC 5545).
 */
export const calendarEvents = pgTable(
  "calendar_events",
  {
    id: serial("id").primaryKey(),
    facilityId: integer("facility_id")
      .notNull()
      .references(() => facilities.id, { onDelete: "cascade" }),
    topicId: integer("topic_id")
      .notNull()
      .references(() => topics.id),
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id),
    label: text("label").notNull(),
    location: text("location"),
    color: text("color").notNull(),
    allDay: boolean("all_day").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    organiserId: integer("organiser_id").references(() => users.id, { onDelete: "set null" }),
    sequence: integer("sequence").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("calendar_events_facility_start_idx").on(t.facilityId, t.startsAt),
    // The reminder job reads every facility's events of the next two days.
    index("calendar_events_start_idx").on(t.startsAt),
  ],
);

/** The event and the person a calendar row is about; the row goes with either. */
const eventAndUser = () => ({
  eventId: integer("event_id")
    .notNull()
    .references(() => calendarEvents.id, { onDelete: "cascade" }),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
});

/**
 * Who is invited, and after the event whether they attended (null until recorded). For a
 * passive training the certificate issued through this attendance is kept, so it is issued once.
 */
export const calendarInvitees = pgTable(
  "calendar_invitees",
  {
    ...eventAndUser(),
    attended: boolean("attended"),
    certificateId: integer("certificate_id").references(() => certificates.id, { onDelete: "set null" }),
  },
  (t) => [
    primaryKey({ name: "calendar_invitees_pk", columns: [t.eventId, t.userId] }),
    // An employee's own events (/calendar/mine, the feed).
    index("calendar_invitees_user_idx").on(t.userId),
  ],
);

/**
 * The reminders sent per event, recipient and stage ('tomorrow', 'today'), written in the
 * notifications' transaction: a second run (or a second server) sends nothing twice.
 */
export const calendarReminders = pgTable(
  "calendar_reminders",
  {
    ...eventAndUser(),
    stage: text("stage").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: "calendar_reminders_pk", columns: [t.eventId, t.userId, t.stage] })],
);

/**
 * A user's personal iCalendar subscription: only a SHA-256 hash of its secret is kept, so a
 * copy of the database opens no one's calendar. A new secret replaces the row.
 */
export const calendarFeeds = pgTable("calendar_feeds", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretHash: text("secret_hash").notNull().unique(),
  createdAt: createdAt(),
});

/**
 * The counters of the login limits and request limits (security/limits.ts), in the database so every
 * server process on it counts together (ARCHITECTURE decision 18). One row per key: a login or a
 * user ('password:…'), an IP ('ip:…'), or a limited call ('forgot:…', 'help:…'). `hits` counts
 * within the window that began at `window_start`; `blocked_until` is the end of a lock.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    blockedUntil: timestamp("blocked_until", { withTimezone: true }),
  },
  (t) => [index("rate_limits_window_start_idx").on(t.windowStart)],
);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * Wiki topics (ARCHITECTURE decision 14): common (facility null) or a facility's own. A key is
 * unique among the common topics and among each facility's; origin says whether the content
 * package or the app made it (an import touches only its own).
 */
export const wikiTopics = pgTable(
  "wiki_topics",
  {
    id: serial("id").primaryKey(),
    key: text("key").notNull(),
    facilityId: integer("facility_id").references(() => facilities.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    origin: text("origin").notNull().default("app"),
    position: integer("position").notNull().default(0),
    retired: boolean("retired").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("wiki_topics_key_uq").on(t.key, sql`coalesce(${t.facilityId}, 0)`)],
);

/**
 * A wiki page: where it hangs, whose it is, and which of its revisions is the newest and which
 * is released. `version` grows with every change, so two editors cannot overwrite each other.
 */
export const wikiPages = pgTable(
  "wiki_pages",
  {
    id: serial("id").primaryKey(),
    topicId: integer("topic_id")
      .notNull()
      .references(() => wikiTopics.id, { onDelete: "cascade" }),
    facilityId: integer("facility_id").references(() => facilities.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    origin: text("origin").notNull().default("app"),
    /** Package pages: a hash of the text the last import brought, so an unchanged package adds no revision. */
    packageHash: text("package_hash"),
    position: integer("position").notNull().default(0),
    requiresConfirmation: boolean("requires_confirmation").notNull().default(false),
    latestRevision: integer("latest_revision").notNull().default(0),
    releasedRevision: integer("released_revision"),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    releasedBy: text("released_by"),
    version: integer("version").notNull().default(1),
    retired: boolean("retired").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("wiki_pages_slug_uq").on(t.topicId, t.slug, sql`coalesce(${t.facilityId}, 0)`),
    index("wiki_pages_released_at_idx").on(t.releasedAt),
  ],
);

/**
 * One language of a revision: its title and Markdown. A translation (issue 31, wiki/translations.ts)
 * also carries its status and `source`, the revision whose German it translates; the German carries
 * `since`, the revision in which its text last changed. Texts without them: published and current.
 */
export interface WikiText {
  title: string;
  markdown: string;
  status?: string;
  source?: number;
  since?: number;
}

/** Every save of a page: all its languages as they were, who saved it, when and why. */
export const wikiRevisions = pgTable(
  "wiki_revisions",
  {
    pageId: integer("page_id")
      .notNull()
      .references(() => wikiPages.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    content: jsonb("content").$type<Record<string, WikiText>>().notNull(),
    summary: text("summary").notNull().default(""),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    /** Kept as it was at the save, so the history reads the same after the account is gone. */
    authorName: text("author_name").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "wiki_revisions_pk", columns: [t.pageId, t.number] })],
);

/**
 * The search index: the released revision of every live page, one row per language, with its
 * text vector in that language's configuration (German for de). Written on release.
 */
export const wikiSearch = pgTable(
  "wiki_search",
  {
    pageId: integer("page_id")
      .notNull()
      .references(() => wikiPages.id, { onDelete: "cascade" }),
    lang: text("lang").notNull(),
    config: text("config").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    document: tsvector("document").notNull(),
  },
  (t) => [
    primaryKey({ name: "wiki_search_pk", columns: [t.pageId, t.lang] }),
    index("wiki_search_document_idx").using("gin", t.document),
  ],
);

/** 'I have read and understood this version': who confirmed which released revision, when. */
export const wikiConfirmations = pgTable(
  "wiki_confirmations",
  {
    pageId: integer("page_id")
      .notNull()
      .references(() => wikiPages.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }).notNull(),
    /**
     * The language of the revision that was read and confirmed (issue 31; German is binding).
     * Null for confirmations given before the language was recorded.
     */
    lang: text("lang"),
  },
  (t) => [
    primaryKey({ name: "wiki_confirmations_pk", columns: [t.pageId, t.userId, t.revision] }),
    index("wiki_confirmations_user_idx").on(t.userId),
  ],
);

/**
 * The audit trail (issue 28, ARCHITECTURE decision 21): every change staff make, written in the
 * same transaction as the change (audit/record.ts). The entries form a hash chain: `hash` covers
 * the previous entry's hash and every column but `personal`, so a changed, inserted or deleted
 * entry is found by `npm run audit:verify`. Names, logins and e-mails live in `personal` only,
 * outside the hash, so that erasing a person never breaks the chain.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, precision: 3 }).notNull(),
    /** The user who made the change; null for the system (a job, the start). */
    actorId: integer("actor_id"),
    /** The actor's most powerful role at the time, or 'system'. */
    actorRole: text("actor_role").notNull(),
    /** What happened (contract AUDIT_KINDS). */
    kind: text("kind").notNull(),
    /** The facility the change belongs to; null for installation-wide changes. */
    facilityId: integer("facility_id"),
    /** The person the change is about, if any. */
    subjectId: integer("subject_id"),
    /** What changed, before and after where it matters: ids, fields, counts; never a name or a secret. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Names, logins, e-mails shown with the entry; outside the hash, emptied by erasure. */
    personal: jsonb("personal").$type<Record<string, unknown>>().notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    index("audit_log_facility_idx").on(t.facilityId, t.id),
    index("audit_log_subject_idx").on(t.subjectId),
    index("audit_log_actor_idx").on(t.actorId),
    index("audit_log_kind_idx").on(t.kind, t.id),
  ],
);

/**
 * The training matrix as it was (issue 29, evidence at a date): one row per user and period in
 * which their matrix (and facility) stayed the same. `trainings` null: every training of the
 * facility (no matrix of their own). Written with every matrix or facility change from migration
 * 0020 on; `valid_to` null for the current period. Before the first row of a user, today's
 * records cannot tell: the evidence report says from which day it is exact.
 */
export const trainingMatrixHistory = pgTable(
  "training_matrix_history",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    facilityId: integer("facility_id"),
    trainings: integer("trainings").array(),
    validFrom: timestamp("valid_from", { withTimezone: true }).notNull(),
    validTo: timestamp("valid_to", { withTimezone: true }),
  },
  (t) => [index("training_matrix_history_user_idx").on(t.userId, t.validFrom)],
);

/* ---------- verifiable credentials (issue 29, credentials/) ---------- */

/**
 * The installation's Ed25519 signing keys, public halves only (the secret is CREDENTIALS_KEY or
 * kept like the token secret). did.json lists the current key and every older one while a
 * credential it signed is still valid (key rotation).
 */
export const credentialKeys = pgTable("credential_keys", {
  id: serial("id").primaryKey(),
  /** The key as Multikey publicKeyMultibase (z6Mk…); also the fragment of its verification method. */
  publicKeyMultibase: text("public_key_multibase").notNull().unique(),
  createdAt: createdAt(),
});

/** A Bitstring Status List (purpose revocation); its signed credential is kept until a bit changes. */
export const credentialStatusLists = pgTable("credential_status_lists", {
  id: serial("id").primaryKey(),
  /** Bits in the list (131 072: the spec's minimum for group privacy). */
  size: integer("size").notNull(),
  createdAt: createdAt(),
  /** The signed BitstringStatusListCredential last served (JSON text), and the bits it was signed with (hash). */
  document: text("document"),
  bitsHash: text("bits_hash"),
});

/** The Open Badges 3.0 credential of a certificate: signed once, served as it was signed. */
export const certificateCredentials = pgTable(
  "certificate_credentials",
  {
    certificateId: integer("certificate_id")
      .primaryKey()
      .references(() => certificates.id, { onDelete: "cascade" }),
    statusListId: integer("status_list_id")
      .notNull()
      .references(() => credentialStatusLists.id),
    /** The credential's bit in its status list, chosen at random. */
    statusIndex: integer("status_index").notNull(),
    keyId: integer("key_id")
      .notNull()
      .references(() => credentialKeys.id),
    /** Until when it is valid (the certificate's expiry): did.json keeps its key until then. */
    validUntil: timestamp("valid_until", { withTimezone: true }).notNull(),
    /** Set by setCredentialRevoked (revocation); the status list also reads certificates.revoked_at. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The signed credential as JSON text, byte for byte as first served; its holder is a salted hash. */
    document: text("document").notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique("certificate_credentials_status_uq").on(t.statusListId, t.statusIndex)],
);
