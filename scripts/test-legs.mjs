// Which API test files run on which database when both are there (DATABASE_URL set, as on CI).
//
// The API tests run in full on PostgreSQL (scripts/test-pg.mjs). On PGlite, the embedded database
// `npm start` uses, they run in full only without DATABASE_URL; with it, the PGlite leg runs the
// files below. What PGlite does differently from PostgreSQL lies in the database layer, not in a
// feature's SQL (PGlite is PostgreSQL compiled to WebAssembly): its driver's type parsing (bytea,
// timestamps), one session (advisory locks re-entrant, transactions queued), its change feed, its
// data directory and the start-up around it. So the leg holds every file that tests that layer or
// leans on it hardest, and the date-sensitive files, which must pass in both process time zones
// (scripts/test-zones.mjs; the PostgreSQL leg runs the second). Every feature also runs on PGlite
// end to end in the browser tests: their servers use PGlite (e2e/serve.mjs).
/** The API test files whose calendar days could depend on the process's time zone. */
export const DATE_SENSITIVE_API = [
  "apps/server/src/notifications/expiry-job.test.ts",
  "apps/server/src/overview/overview.test.ts",
  "apps/server/src/overview/xlsx.test.ts",
  "apps/server/src/jobs/runner.test.ts",
  "apps/server/src/calendar/events.test.ts",
  "apps/server/src/calendar/ics.test.ts",
  "apps/server/src/calendar/reminders.test.ts",
];

export const PGLITE_LEG = [
  // The database layer: driver, transactions and their retries, locks, the content generation.
  "apps/server/src/db/",
  // The privacy registry, checked against the migrated database's foreign keys and columns.
  "apps/server/src/privacy/",
  // Media bytes (bytea) in and out.
  "apps/server/src/storage/",
  "apps/server/src/files/",
  "apps/server/src/certificates/",
  // The change feed (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite) and the caches on it.
  "apps/server/src/learning/content-cache.test.ts",
  "apps/server/src/security/session-cache.test.ts",
  // The answer path with the learner's lock, and the content import's large transaction.
  "apps/server/src/learning/quiz.test.ts",
  "apps/server/src/content/content.test.ts",
  "apps/server/src/users/import.test.ts",
  // Backups: the PGlite server's backup channel and data directory, restores on PGlite.
  "apps/server/src/backup/",
  // Start-up on a data directory, jobs and their locks, the outbox.
  "apps/server/src/bootstrap.test.ts",
  "apps/server/src/system/system.test.ts",
  "apps/server/src/mail/outbox.test.ts",
  ...DATE_SENSITIVE_API,
];
