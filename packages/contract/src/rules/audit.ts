/*
 * The audit trail (issue 28, ARCHITECTURE decision 21): what kinds of change are recorded. The
 * server writes one entry per change in the change's own transaction; the web app names each
 * kind in the reader's language (audit.kind.<kind> in the locales) and filters by it.
 */
export const AUDIT_KINDS = [
  // People
  "user.created",
  "user.updated",
  "user.password_reset",
  "user.archived",
  "user.restored",
  "user.erased",
  "user.exported",
  "user.erasure_requested",
  "users.imported",
  // Qualifications and what people must learn
  "qualification.created",
  "matrix.changed",
  "training.marked_passed",
  "certificate.issued",
  "certificate.revoked",
  // Calendar
  "calendar.event_created",
  "calendar.event_updated",
  "calendar.event_deleted",
  "calendar.attendance_recorded",
  // Help requests
  "help.replied",
  "help.handled",
  // Content and handbook
  "content.imported",
  "content.created",
  "content.updated",
  "content.deleted",
  "wiki.page_saved",
  "wiki.page_released",
  // The installation
  "facility.created",
  "settings.started",
] as const;

export type AuditKind = (typeof AUDIT_KINDS)[number];

/** The actor of an entry the system made (a job, the start): no user. */
export const AUDIT_SYSTEM_ACTOR = "system";

/** Entries per page of GET /audit. */
export const AUDIT_PAGE_SIZE = 50;
