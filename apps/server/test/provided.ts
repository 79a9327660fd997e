// What the global setup hands to the test files (vitest's provide/inject).
declare module "vitest" {
  export interface ProvidedContext {
    /** A `dumpDataDir()` tarball of a migrated PGlite with the reference lists (TEST_DB unset). */
    pgliteTemplate: string;
    /** The migrated PGlite's data directory that tarball was made of, to copy (never to open). */
    pgliteTemplateDir: string;
    /** A migrated PostgreSQL database with the reference lists, to `create database … template` (TEST_DB=pg). */
    pgTemplate: string;
  }
}

export {};
