// What the global setup hands to the test files (vitest's provide/inject).
declare module "vitest" {
  export interface ProvidedContext {
    /** A `dumpDataDir()` tarball of a migrated PGlite with the reference lists (TEST_DB unset). */
    pgliteTemplate: string;
    /** The same template as a closed PGlite data directory (the `pglite` folder of a DATA_DIR), to copy. */
    pgliteTemplateDir: string;
    /** A migrated PostgreSQL database with the reference lists, to `create database … template` (TEST_DB=pg). */
    pgTemplate: string;
  }
}

export {};
