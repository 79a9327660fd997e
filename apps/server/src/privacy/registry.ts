// The privacy registry (issue 28 "Records that last"): every table that holds personal data or
// names a user, with the columns that are personal, how each row is tied to a person, why it is
// kept, which part of the person's export it belongs to and what erasure does to it. The data
// export and the erasure after RETENTION_YEARS are to be driven from this list, and
// registry.test.ts fails when the schema or a migration adds a user reference that is not here.
//
// Entries name Drizzle columns, not strings: a renamed or dropped column fails to compile.
import { type ExportCategory, loginKey, type PrivacyPart, personName } from "@carecampus/contract";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  answerRequests,
  auditLog,
  calendarEvents,
  calendarFeeds,
  calendarInvitees,
  calendarReminders,
  certificateCredentials,
  certificates,
  helpReplies,
  helpRequests,
  mailOutbox,
  nameTranslations,
  notifications,
  partnerCertificates,
  preferences,
  questionContentFlags,
  questionTranslations,
  quizAttempts,
  rateLimits,
  ssoIdentities,
  trainingMatrices,
  trainingMatrixEntries,
  trainingMatrixHistory,
  userActivities,
  userAdditionalQualifications,
  userQualifications,
  userRoles,
  users,
  wikiConfirmations,
  wikiPages,
  wikiRevisions,
} from "../db/schema";

/** The file of the employee's export (a ZIP with one JSON per category) a row goes into (contract rules/privacy.ts). */
export type { ExportCategory };

export type ExportRule = { category: ExportCategory } | { category: "none"; reason: string };

/** What a personal column holds; names, logins, e-mails, IPs and secrets must go at erasure. */
export type PersonalKind = "user-id" | "name" | "login" | "email" | "ip" | "secret" | "free-text" | "document" | "fact";

/** What erasure writes into a column it keeps. */
export type Replacement =
  /** SQL null (nullable columns only). */
  | "null"
  /** '' for text, an empty array for arrays. */
  | "empty"
  /** The column's default. */
  | "default"
  /** A unique stand-in naming nobody (e.g. `erased-<id>`), where the column must stay unique and not empty. */
  | "pseudonym"
  /** A value that opens nothing (a password or secret hash no input can match). */
  | "unusable";

/**
 * What erasure (after RETENTION_YEARS) does to the rows that a link ties to the erased person.
 * The users row itself is anonymised, not deleted, so rows that keep pointing at it count on
 * anonymously (progress, certificates, attendance) and name nobody.
 */
export type ErasureRule =
  /**
   * The person's rows are deleted. `atOnce`: they prove nothing, so an erasure request deletes
   * them at once, before the retention ends (the part of the data the answer names).
   */
  | { rule: "delete"; why: string; atOnce?: PrivacyPart }
  /** The rows stay; the listed columns get their replacement. */
  | { rule: "anonymise"; set: readonly { column: AnyPgColumn; to: Replacement }[]; why: string }
  /** The rows stay as they are: besides the link to the anonymised users row they hold nothing personal. */
  | { rule: "keep-anonymous"; why: string }
  /**
   * Short-lived rows that their own job removes well within the retention period (a lapsed
   * limit window); erasure deletes whatever is still there.
   */
  | { rule: "keep-until-retention"; why: string; atOnce?: PrivacyPart }
  /**
   * The person is named here only through the user reference (as the one who acted), which
   * points at the anonymised users row after erasure; the row is someone else's record.
   */
  | { rule: "not-personal-after-erasure"; why: string };

/**
 * How a row is tied to a person. `user-id`: the column holds users.id (a foreign key to it, or
 * to another column that does). The others are copies that name the person without a key: the
 * erasure finds them by the person's e-mail, login key, name or limit key as `how` says.
 */
export interface PersonLink {
  column: AnyPgColumn;
  by: "user-id" | "email" | "name" | "limit-key" | "embedded";
  /** subject: the row is about this person; actor: the person did something to someone's row; mentioned: named inside another person's row. */
  role: "subject" | "actor" | "mentioned";
  how?: string;
  /** A link without a user id: the condition that finds the person's rows (the export and erasure use it). */
  match?: (person: PersonKeys) => SQL;
  /**
   * An actor link: the personal columns (or keys of a JSON column) that describe the actor, not
   * the row's subject (the author's name and remark). The export shows an actor these and
   * withholds them from everyone else the row is about.
   */
  owns?: readonly Owned[];
  export: ExportRule;
  erasure: ErasureRule;
}

/** A personal column, or one key of a JSON column, that belongs to a link's person. */
export type Owned = AnyPgColumn | { column: AnyPgColumn; key: string };

/** What finds a person's rows where no user id does. */
export interface PersonKeys {
  id: number;
  login: string;
  name: string;
  surname: string;
  email: string | null;
}

/**
 * Rows of a table that are the person's to receive although someone else wrote them (a reply to
 * their help request), reached through a column of their own rows that holds the row's key.
 * The export gives the listed columns and the table's non-personal ones; nothing of the author.
 */
export interface Received {
  key: AnyPgColumn;
  through: AnyPgColumn;
  category: ExportCategory;
  columns: readonly AnyPgColumn[];
}

export interface PersonalColumn {
  column: AnyPgColumn;
  holds: PersonalKind;
}

export interface PrivacyEntry {
  table: PgTable;
  purpose: string;
  /** Every column holding personal data, the links among them. */
  personal: readonly PersonalColumn[];
  /** Every way a row names a person; each user reference of the table is one. */
  links: readonly PersonLink[];
  /** Rows written by others that the person received (exported, erased with the author's rules). */
  received?: readonly Received[];
}

/** The row is about the person its user id names. */
const subjectLink = (column: AnyPgColumn, category: ExportCategory, erasure: ErasureRule): PersonLink => ({
  column,
  by: "user-id",
  role: "subject",
  export: { category },
  erasure,
});

const actorLink = (column: AnyPgColumn, what: string): PersonLink => ({
  column,
  by: "user-id",
  role: "actor",
  export: { category: "audit" },
  erasure: {
    rule: "not-personal-after-erasure",
    why: `${what}; after erasure the reference points at the anonymised account.`,
  },
});

export const PRIVACY_REGISTRY: readonly PrivacyEntry[] = [
  {
    table: users,
    purpose: "The account: who may sign in, in which facility and under which name.",
    personal: [
      { column: users.id, holds: "user-id" },
      { column: users.login, holds: "login" },
      { column: users.loginKey, holds: "login" },
      { column: users.name, holds: "name" },
      { column: users.surname, holds: "name" },
      { column: users.salutation, holds: "name" },
      { column: users.email, holds: "email" },
      { column: users.passwordHash, holds: "secret" },
      { column: users.expiresAt, holds: "fact" },
      { column: users.archivedAt, holds: "fact" },
      { column: users.archivedBy, holds: "user-id" },
    ],
    links: [
      subjectLink(users.id, "profile", {
        rule: "anonymise",
        set: [
          { column: users.login, to: "pseudonym" },
          { column: users.loginKey, to: "pseudonym" },
          { column: users.name, to: "empty" },
          { column: users.surname, to: "empty" },
          { column: users.salutation, to: "default" },
          { column: users.email, to: "null" },
          { column: users.passwordHash, to: "unusable" },
        ],
        why: "The row stays so progress, certificates and attendance still count in their facility, naming nobody.",
      }),
      {
        column: users.archivedBy,
        by: "user-id",
        role: "actor",
        export: {
          category: "none",
          reason: "The archived person's account is theirs; the audit trail (user.archived) shows who archived whom.",
        },
        erasure: {
          rule: "not-personal-after-erasure",
          why: "Who archived a person who left; after erasure the reference points at the anonymised account.",
        },
      },
    ],
  },
  {
    table: userRoles,
    purpose: "The roles a user holds (what they may do).",
    personal: [{ column: userRoles.userId, holds: "user-id" }],
    links: [
      subjectLink(userRoles.userId, "profile", {
        rule: "keep-anonymous",
        why: "Counts per role stay right; a role names nobody.",
      }),
    ],
  },
  {
    table: ssoIdentities,
    purpose: "Who the person is at their employer's identity provider (single sign-on, issue 32).",
    personal: [
      { column: ssoIdentities.userId, holds: "user-id" },
      { column: ssoIdentities.subject, holds: "login" },
      { column: ssoIdentities.lastLoginAt, holds: "fact" },
    ],
    links: [
      subjectLink(ssoIdentities.userId, "profile", {
        rule: "delete",
        why: "Only needed to recognise the person at their next login; an archived person is refused by their account, not by this link.",
      }),
    ],
  },
  {
    table: preferences,
    purpose: "The user's own choices of avatar, language, theme and the language trainings come in.",
    personal: [{ column: preferences.userId, holds: "user-id" }],
    links: [
      subjectLink(preferences.userId, "preferences", {
        rule: "delete",
        why: "Only of use to the person; nothing is counted from it.",
        atOnce: "preferences",
      }),
    ],
  },
  ...[userActivities, userQualifications, userAdditionalQualifications].map(
    (table): PrivacyEntry => ({
      table,
      purpose: "The areas of focus and qualifications a facility records for its staff.",
      personal: [{ column: table.userId, holds: "user-id" }],
      links: [
        subjectLink(table.userId, "profile", {
          rule: "keep-anonymous",
          why: "Counts per qualification stay right; the row names nobody else.",
        }),
      ],
    }),
  ),
  {
    table: notifications,
    purpose: "In-app notices to a user (expiring certificates, reminders, password-reset requests).",
    personal: [
      { column: notifications.userId, holds: "user-id" },
      { column: notifications.customMessage, holds: "free-text" },
    ],
    links: [
      subjectLink(notifications.userId, "notifications", {
        rule: "delete",
        why: "Messages to the person; nothing is counted from them.",
        atOnce: "notifications",
      }),
      {
        column: notifications.customMessage,
        by: "embedded",
        role: "mentioned",
        how: "A PASSWORD_RESET_REQUEST notice to the administrators holds the requester's login, name and surname in values.",
        match: (p) =>
          and(
            eq(notifications.type, "PASSWORD_RESET_REQUEST"),
            sql`${notifications.customMessage}->'values'->>'login' = ${p.login}`,
          ) as SQL,
        export: { category: "none", reason: "It is a message to the administrators, not to the person named." },
        erasure: {
          rule: "delete",
          why: "The notice exists only to name the requester; without the name it says nothing.",
          atOnce: "notifications",
        },
      },
    ],
  },
  {
    table: quizAttempts,
    purpose: "Every answer a learner gave in a quiz round: progress and the proof behind a certificate.",
    personal: [
      { column: quizAttempts.userId, holds: "user-id" },
      { column: quizAttempts.answerIds, holds: "fact" },
    ],
    links: [
      subjectLink(quizAttempts.userId, "answers", {
        rule: "keep-anonymous",
        why: "Answer statistics per question stay; the row holds no text.",
      }),
    ],
  },
  {
    table: answerRequests,
    purpose:
      "The answer to a quiz answer sent with an Idempotency-Key, kept for seven days so that a phone's resend gets it again.",
    personal: [
      { column: answerRequests.userId, holds: "user-id" },
      { column: answerRequests.key, holds: "fact" },
      { column: answerRequests.response, holds: "document" },
    ],
    links: [
      {
        column: answerRequests.userId,
        by: "user-id",
        role: "subject",
        export: {
          category: "none",
          reason:
            "A copy of an answer's result for at most seven days; the answers and progress are in their own files.",
        },
        erasure: {
          rule: "keep-until-retention",
          why: "The answer-key job deletes rows after seven days; erasure deletes any of the person's left.",
        },
      },
    ],
  },
  {
    table: certificates,
    purpose: "Every certificate issued (history): proof of mandatory training for the facility.",
    personal: [
      { column: certificates.userId, holds: "user-id" },
      { column: certificates.markedBy, holds: "user-id" },
      { column: certificates.verificationCode, holds: "secret" },
      { column: certificates.revokedBy, holds: "user-id" },
      { column: certificates.revokeNote, holds: "free-text" },
    ],
    links: [
      subjectLink(certificates.userId, "certificates", {
        rule: "anonymise",
        set: [
          { column: certificates.verificationCode, to: "pseudonym" },
          { column: certificates.revokeNote, to: "null" },
        ],
        why: "Counts stay; a printed certificate's code no longer resolves to the record, and staff's note on a revocation goes.",
      }),
      actorLink(certificates.markedBy, "Who marked a passive training passed for someone"),
      actorLink(certificates.revokedBy, "Who revoked someone's certificate"),
    ],
  },
  {
    table: certificateCredentials,
    purpose:
      "A certificate's signed Open Badges 3.0 credential (VERIFIABLE_CREDENTIALS): its holder is a salted hash of the login, never a name or e-mail.",
    personal: [
      { column: certificateCredentials.certificateId, holds: "fact" },
      { column: certificateCredentials.document, holds: "document" },
    ],
    links: [
      {
        column: certificateCredentials.certificateId,
        by: "embedded",
        role: "subject",
        how: "Tied to the person through their certificate (certificates.user_id).",
        match: (p) =>
          sql`${certificateCredentials.certificateId} in (select ${certificates.id} from ${certificates} where ${certificates.userId} = ${p.id})`,
        export: { category: "certificates" },
        erasure: {
          rule: "delete",
          why: "The credential is the person's to carry; once they are erased its holder hash must resolve to nobody here. The certificate row keeps the count.",
        },
      },
    ],
  },
  {
    table: partnerCertificates,
    purpose: "A partner provider's certificate of an external course, its PDF as the partner issued it.",
    personal: [
      { column: partnerCertificates.userId, holds: "user-id" },
      { column: partnerCertificates.content, holds: "document" },
      { column: partnerCertificates.filename, holds: "free-text" },
      { column: partnerCertificates.partnerCertificateId, holds: "fact" },
    ],
    links: [
      subjectLink(partnerCertificates.userId, "certificates", {
        rule: "delete",
        why: "The PDF prints the person's name; the training's own certificate row keeps the count.",
      }),
    ],
  },
  {
    table: helpReplies,
    purpose: "Staff's reply to learners who asked about a quiz question, with its author's name as shown.",
    personal: [
      { column: helpReplies.authorId, holds: "user-id" },
      { column: helpReplies.authorName, holds: "name" },
      { column: helpReplies.text, holds: "free-text" },
    ],
    links: [
      {
        column: helpReplies.authorId,
        by: "user-id",
        role: "actor",
        owns: [helpReplies.authorName, helpReplies.text],
        export: { category: "help" },
        erasure: {
          rule: "anonymise",
          set: [{ column: helpReplies.authorName, to: "empty" }],
          why: "The text explains a question to several learners and stays; the author's name goes.",
        },
      },
    ],
    // The reply a learner got to their request: its text is theirs to receive, its author's name not.
    received: [{ key: helpReplies.id, through: helpRequests.replyId, category: "help", columns: [helpReplies.text] }],
  },
  {
    table: helpRequests,
    purpose: "A learner's request for help with an unclear question, and who handled it.",
    personal: [
      { column: helpRequests.userId, holds: "user-id" },
      { column: helpRequests.handledBy, holds: "user-id" },
    ],
    links: [
      subjectLink(helpRequests.userId, "help", {
        rule: "keep-anonymous",
        why: "How often a question was unclear stays; the row holds no text.",
      }),
      actorLink(helpRequests.handledBy, "Who handled another learner's request"),
    ],
  },
  {
    table: questionContentFlags,
    purpose: "A question a Super-Admin marked as needing a content fix, with their note and name.",
    personal: [
      { column: questionContentFlags.flaggedBy, holds: "user-id" },
      { column: questionContentFlags.flaggedByName, holds: "name" },
      { column: questionContentFlags.note, holds: "free-text" },
    ],
    links: [
      {
        column: questionContentFlags.flaggedBy,
        by: "user-id",
        role: "actor",
        owns: [questionContentFlags.flaggedByName, questionContentFlags.note],
        export: { category: "audit" },
        erasure: {
          rule: "anonymise",
          set: [
            { column: questionContentFlags.flaggedByName, to: "empty" },
            { column: questionContentFlags.note, to: "null" },
          ],
          why: "The flag stays for content work; the name and the free text go.",
        },
      },
    ],
  },
  {
    table: questionTranslations,
    purpose: "A question's translation into a content language, and who last wrote it.",
    personal: [{ column: questionTranslations.updatedBy, holds: "user-id" }],
    links: [actorLink(questionTranslations.updatedBy, "Who last wrote a question's translation")],
  },
  {
    table: nameTranslations,
    purpose: "A topic's, training's or questionnaire's name in a content language, and who last wrote it.",
    personal: [{ column: nameTranslations.updatedBy, holds: "user-id" }],
    links: [actorLink(nameTranslations.updatedBy, "Who last wrote a name's translation")],
  },
  {
    table: trainingMatrices,
    purpose: "Which trainings a user must do (their training matrix), and who last changed it.",
    personal: [
      { column: trainingMatrices.userId, holds: "user-id" },
      { column: trainingMatrices.updatedBy, holds: "user-id" },
    ],
    links: [
      subjectLink(trainingMatrices.userId, "progress", {
        rule: "keep-anonymous",
        why: "Assigned-training totals stay right; it names nobody else.",
      }),
      actorLink(trainingMatrices.updatedBy, "Who changed someone's training matrix"),
    ],
  },
  {
    table: trainingMatrixHistory,
    purpose: "Which trainings a user had to hold in which period: the evidence at a date (issue 29).",
    personal: [{ column: trainingMatrixHistory.userId, holds: "user-id" }],
    links: [
      subjectLink(trainingMatrixHistory.userId, "progress", {
        rule: "keep-anonymous",
        why: "Who had to hold a training when stays countable for the facility's evidence; the row names nobody.",
      }),
    ],
  },
  {
    table: trainingMatrixEntries,
    purpose: "The trainings of a user's training matrix.",
    personal: [{ column: trainingMatrixEntries.userId, holds: "user-id" }],
    links: [
      subjectLink(trainingMatrixEntries.userId, "progress", {
        rule: "keep-anonymous",
        why: "Assigned-training totals stay right; it holds only training ids.",
      }),
    ],
  },
  {
    table: calendarEvents,
    purpose: "A facility's in-person training date and who organises it.",
    personal: [{ column: calendarEvents.organiserId, holds: "user-id" }],
    links: [
      {
        column: calendarEvents.organiserId,
        by: "user-id",
        role: "actor",
        export: { category: "calendar" },
        erasure: {
          rule: "not-personal-after-erasure",
          why: "The event is the facility's; after erasure the organiser is the anonymised account.",
        },
      },
    ],
  },
  {
    table: calendarInvitees,
    purpose: "Who is invited to a training date and whether they attended.",
    personal: [
      { column: calendarInvitees.userId, holds: "user-id" },
      { column: calendarInvitees.attended, holds: "fact" },
    ],
    links: [
      subjectLink(calendarInvitees.userId, "calendar", {
        rule: "keep-anonymous",
        why: "Attendance counts of the event stay; the row holds no text.",
      }),
    ],
  },
  {
    table: calendarReminders,
    purpose: "Which event reminders went to whom, so none is sent twice.",
    personal: [{ column: calendarReminders.userId, holds: "user-id" }],
    links: [
      {
        column: calendarReminders.userId,
        by: "user-id",
        role: "subject",
        export: { category: "none", reason: "A job's bookkeeping; the reminders themselves are in notifications." },
        erasure: {
          rule: "delete",
          why: "Of no use once the event is past; nothing is counted from it.",
          atOnce: "reminders",
        },
      },
    ],
  },
  {
    table: calendarFeeds,
    purpose: "The hash of a user's personal calendar-subscription secret.",
    personal: [
      { column: calendarFeeds.userId, holds: "user-id" },
      { column: calendarFeeds.secretHash, holds: "secret" },
    ],
    links: [
      {
        column: calendarFeeds.userId,
        by: "user-id",
        role: "subject",
        export: { category: "none", reason: "Only a hash of a secret: it tells the person nothing and is no key." },
        erasure: { rule: "delete", why: "The feed must stop opening the calendar.", atOnce: "calendar-feed" },
      },
    ],
  },
  {
    table: rateLimits,
    purpose: "Login and request limit counters, keyed by login, user id or IP address.",
    personal: [{ column: rateLimits.key, holds: "ip" }],
    links: [
      {
        column: rateLimits.key,
        by: "limit-key",
        role: "subject",
        how: "password:user:<id>, password:login:<login key>, rename:<id>, help:<id>, forgot:login:<login key>; ip:/forgot:ip:/errors:ip: hold an address.",
        match: (p) =>
          inArray(rateLimits.key, [
            `password:user:${p.id}`,
            `rename:${p.id}`,
            `help:${p.id}`,
            `password:login:${loginKey(p.login)}`,
            `forgot:login:${loginKey(p.login)}`,
          ]),
        export: { category: "none", reason: "Security counters of minutes to hours, not a record about the person." },
        erasure: {
          rule: "keep-until-retention",
          why: "The limits job deletes rows whose window lapsed; erasure deletes any of the person's keys left.",
          atOnce: "security-counters",
        },
      },
    ],
  },
  {
    table: mailOutbox,
    purpose: "E-mails waiting to go out and sent ones, with their recipients and text.",
    personal: [
      { column: mailOutbox.recipients, holds: "email" },
      { column: mailOutbox.subject, holds: "free-text" },
      { column: mailOutbox.text, holds: "free-text" },
      { column: mailOutbox.attachments, holds: "free-text" },
      { column: mailOutbox.lastError, holds: "free-text" },
    ],
    links: [
      {
        column: mailOutbox.recipients,
        by: "email",
        role: "subject",
        how: "The person's e-mail address among the recipients.",
        match: (p) => (p.email ? sql`${p.email} = any(${mailOutbox.recipients})` : sql`false`),
        export: { category: "none", reason: "Copies of mails the person received in their own mailbox." },
        erasure: {
          rule: "delete",
          why: "A sent mail's copy serves no purpose here; its text may name the person.",
          atOnce: "mails",
        },
      },
    ],
  },
  {
    table: wikiPages,
    purpose: "A wiki page, with the name of whoever released its current revision.",
    personal: [{ column: wikiPages.releasedBy, holds: "name" }],
    links: [
      {
        column: wikiPages.releasedBy,
        by: "name",
        role: "actor",
        how: "The releaser's display name as it was at the release, with no user id (a namesake's release name goes too).",
        match: (p) => (personName(p) ? eq(wikiPages.releasedBy, personName(p)) : sql`false`),
        export: { category: "audit" },
        erasure: {
          rule: "anonymise",
          set: [{ column: wikiPages.releasedBy, to: "null" }],
          why: "The page is the facility's; only the name goes.",
        },
      },
    ],
  },
  {
    table: wikiRevisions,
    purpose: "Every save of a wiki page, who saved it under which name, and why.",
    personal: [
      { column: wikiRevisions.authorId, holds: "user-id" },
      { column: wikiRevisions.authorName, holds: "name" },
      { column: wikiRevisions.summary, holds: "free-text" },
    ],
    links: [
      {
        column: wikiRevisions.authorId,
        by: "user-id",
        role: "actor",
        owns: [wikiRevisions.authorName, wikiRevisions.summary],
        export: { category: "audit" },
        erasure: {
          rule: "anonymise",
          set: [
            { column: wikiRevisions.authorName, to: "empty" },
            { column: wikiRevisions.summary, to: "empty" },
          ],
          why: "The page text is facility documentation and stays; the author's name and remark go.",
        },
      },
    ],
  },
  {
    table: auditLog,
    purpose:
      "The audit trail: what staff changed, when, about whom. The hashed part holds ids and facts; names sit in `personal`, outside the hash.",
    personal: [
      { column: auditLog.actorId, holds: "user-id" },
      { column: auditLog.subjectId, holds: "user-id" },
      { column: auditLog.personal, holds: "name" },
    ],
    links: [
      {
        column: auditLog.subjectId,
        by: "user-id",
        role: "subject",
        export: { category: "audit" },
        erasure: {
          rule: "anonymise",
          set: [{ column: auditLog.personal, to: "empty" }],
          why: "The entry stays (the chain and the facility's record need it); every name in it goes (audit/record.ts forgetPersonInAudit).",
        },
      },
      {
        column: auditLog.actorId,
        by: "user-id",
        role: "actor",
        owns: [{ column: auditLog.personal, key: "actor" }],
        export: { category: "audit" },
        erasure: {
          rule: "anonymise",
          set: [{ column: auditLog.personal, to: "empty" }],
          why: "What the person did stays on record under their id; their name (personal.actor) goes.",
        },
      },
    ],
  },
  {
    table: wikiConfirmations,
    purpose: "Who confirmed having read which released revision of a page, in which language, and when.",
    personal: [{ column: wikiConfirmations.userId, holds: "user-id" }],
    links: [
      subjectLink(wikiConfirmations.userId, "confirmations", {
        rule: "keep-anonymous",
        why: "How many staff confirmed a page stays; the row holds no text.",
      }),
    ],
  },
];
