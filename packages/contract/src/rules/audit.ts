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
  // Single sign-on (issue 32): a person created or linked at their first login, roles from the mapping
  "user.sso_created",
  "user.sso_linked",
  "user.sso_roles",
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
  "wiki.page_retired",
  "wiki.topic_created",
  // The installation
  "facility.created",
  "settings.started",
] as const;

export type AuditKind = (typeof AUDIT_KINDS)[number];

/** The actor of an entry the system made (a job, the start): no user. */
export const AUDIT_SYSTEM_ACTOR = "system";

/** Entries per page of GET /audit. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * Every key the server writes into an entry's data (and into the before/after of the changed
 * personal values, and as a name in `fields`): the web app names each in words
 * (audit.field.<key> in the locales); a server test checks the recorded entries against it.
 */
export const AUDIT_DATA_KEYS = [
  // People
  "roles",
  "facility",
  "activities",
  "qualifications",
  "additional_qualifications",
  "fields",
  "name",
  "surname",
  "login",
  "email",
  "salutation",
  "via",
  "by",
  "outcome",
  "erased",
  "kept_until",
  "reason",
  "created",
  "updated",
  "unchanged",
  "archived",
  "qualification",
  // Trainings and certificates
  "topic",
  "training",
  "certificate",
  "certificates",
  "acquired_at",
  "expires_at",
  // Calendar
  "event",
  "label",
  "location",
  "all_day",
  "starts_at",
  "ends_at",
  "invitees",
  // Help requests
  "question",
  "requests",
  "learners",
  "reply",
  // Content
  "item",
  "id",
  "ids",
  "questionnaire",
  "question_order",
  "status",
  "previous",
  "versioned",
  "version",
  "icon",
  "color",
  "topicId",
  "validityMonths",
  "passive",
  "points",
  "wikiLink",
  "legalBasis",
  "topics",
  "trainings",
  "questions",
  "media",
  "tutorialPages",
  "wikiPages",
  "wikiRevisions",
  "newVersions",
  "translations",
  "format",
  "filled",
  // Handbook
  "page",
  "slug",
  "revision",
  "lang",
  "restored",
  "requires_confirmation",
  // Settings at a start
  "database",
  "demo_data",
  "max_users",
  "max_facilities",
  "token_lifetime_seconds",
  "session_max_seconds",
  "limits",
  "media_quota_bytes",
  "trust_proxy_hops",
  "notification_job",
  "workers",
  "smtp",
  "smtp_from",
  "jwt_secret_configured",
  "partner",
  "settings",
  // Before and after without a field of their own: the assigned trainings, who was present
  "assigned",
  "present",
] as const;

export type AuditDataKey = (typeof AUDIT_DATA_KEYS)[number];

/** Keys whose numbers are ids of things (a facility, a training, a person): shown as "No. 12". */
export const AUDIT_ID_KEYS: readonly AuditDataKey[] = [
  "facility",
  "activities",
  "qualifications",
  "qualification",
  "topic",
  "training",
  "certificate",
  "event",
  "invitees",
  "question",
  "requests",
  "reply",
  "id",
  "ids",
  "questionnaire",
  "previous",
  "topicId",
  "page",
  "assigned",
  "present",
];
