/*
 * Catalogue of the i18n keys the server puts into answers and stored messages, which the
 * client translates. Server and web both take them from here, so a key cannot drift.
 */

/** The message keys a notification's CustomMessage (`{key, values}`) is stored with. */
export const NotificationMessageKey = {
  passwordReset: "notifications.passwordReset",
  /** values: training, facility, date (YYYY-MM-DD), stage ("30" | "7" | "0"), topicId, trainingId */
  certificateExpires: "notifications.certificateExpires",
  /** values: facility, count, date (YYYY-MM-DD), stage */
  certificatesExpireSummary: "notifications.certificatesExpireSummary",
  /** values: question (cut to 120), reply, by, training, topicId, trainingId, questionnaireId */
  helpReply: "notifications.helpReply",
  /**
   * values: stage ("tomorrow" | "today"), label, training, facility, start (ISO instant or
   * YYYY-MM-DD), allDay ("true" | "false"), location, eventId, topicId, trainingId
   */
  calendarReminder: "notifications.calendarReminder",
  /** values: title, topic (slug), slug, revision, by — a wiki page waits for the read confirmation */
  wikiConfirmReminder: "notifications.wikiConfirmReminder",
  /** values: training, date (YYYY-MM-DD, the day it was revoked), reason (REVOCATION_REASONS), topicId, trainingId */
  certificateRevoked: "revoke.notification",
} as const;
export type NotificationMessageKey = (typeof NotificationMessageKey)[keyof typeof NotificationMessageKey];

/** Keys only the client shows: the expiry-day stage of a stored key, and a plain-text message. */
export const NotificationDisplayKey = {
  certificateExpired: "notifications.certificateExpired",
  certificatesExpiredSummary: "notifications.certificatesExpiredSummary",
  plain: "notifications.plain",
  /** CALENDAR_EVENT_REMINDER by stage and kind: the stored key reads "tomorrow, at a time". */
  calendarReminderToday: "notifications.calendarReminderToday",
  calendarReminderAllDay: "notifications.calendarReminderAllDay",
  calendarReminderTodayAllDay: "notifications.calendarReminderTodayAllDay",
} as const;

/** Notification types (spec §3, ARCHITECTURE decision 7) with the message keys each is stored with. */
export const notificationCatalogue = {
  CALENDAR_EVENT_REMINDER: [NotificationMessageKey.calendarReminder],
  CERTIFICATE_EXPIRES: [NotificationMessageKey.certificateExpires, NotificationMessageKey.certificatesExpireSummary],
  PASSWORD_RESET_REQUEST: [NotificationMessageKey.passwordReset],
  /** A reply of staff to the learner's help request (issue 'Help requests answered'). */
  HELP_REQUEST_REPLY: [NotificationMessageKey.helpReply],
  /** Staff remind who has not confirmed a wiki page's released version (issue 'Wiki'). */
  WIKI_CONFIRMATION_REMINDER: [NotificationMessageKey.wikiConfirmReminder],
  /** Staff revoked one of the holder's certificates (issue 29): the training is due again. */
  CERTIFICATE_REVOKED: [NotificationMessageKey.certificateRevoked],
} as const satisfies Record<string, readonly NotificationMessageKey[]>;

/** A notification's type (its schema is in schemas/common.ts). */
export type NotificationType = keyof typeof notificationCatalogue;
export const NOTIFICATION_TYPES = Object.keys(notificationCatalogue) as [NotificationType, ...NotificationType[]];

/** The quiz's end-of-round message (AnswerResult.finished.message, ARCHITECTURE decision 3). */
export const QuizFinishedKey = {
  /** values: open */
  open: "quiz.finished.open",
  practice: "quiz.finished.practice",
  questionnaire: "quiz.finished.questionnaire",
  /** values: training */
  certificate: "quiz.finished.certificate",
} as const;

/** The text of the end-of-round link (AnswerResult.finished.link.text). */
export const QuizFinishedLinkKey = {
  toTraining: "quiz.finished.toTraining",
  download: "quiz.finished.download",
} as const;

/** Every key of this catalogue: each must exist in every locale file. */
export const catalogueKeys: readonly string[] = [
  ...Object.values(NotificationMessageKey),
  ...Object.values(NotificationDisplayKey),
  ...Object.values(QuizFinishedKey),
  ...Object.values(QuizFinishedLinkKey),
];
