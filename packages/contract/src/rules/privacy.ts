/*
 * Data protection (issue 28, GDPR Art. 15, 17, 20): the parts of a person's data as the export
 * files them and as an erasure request names what went and what stays. The server's privacy
 * registry (apps/server/src/privacy/registry.ts) files every table under one of the export
 * categories; the web app names each part in the reader's language (privacy.part.<part>).
 */

/** The files `data/<category>.json` of a person's export. */
export const EXPORT_CATEGORIES = [
  "profile",
  "preferences",
  "progress",
  "answers",
  "certificates",
  "help",
  "confirmations",
  "calendar",
  "notifications",
  "audit",
] as const;
export type ExportCategory = (typeof EXPORT_CATEGORIES)[number];

/** Parts of the data an erasure request names: the export categories and what the export leaves out. */
export const PRIVACY_PARTS = [
  ...EXPORT_CATEGORIES,
  /** The secret of the personal calendar subscription. */
  "calendar-feed",
  /** The bookkeeping of reminders sent. */
  "reminders",
  /** Copies of e-mails to the person. */
  "mails",
  /** Login and request counters. */
  "security-counters",
] as const;
export type PrivacyPart = (typeof PRIVACY_PARTS)[number];

/** The years a former employee's training record is kept when RETENTION_YEARS is not set. */
export const DEFAULT_RETENTION_YEARS = 5;
