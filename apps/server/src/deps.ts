import type { VersionResponse } from "@carecampus/contract";
import type { TokenService } from "./auth/tokens";
import type { Config } from "./config";
import type { Database, Db } from "./db/client";
import type { Mailer } from "./mail/mailer";

/** Everything the app is wired with: built by bootstrap.ts (or a test), handed to buildApp. */
export interface AppDeps {
  config: Config;
  database: Database;
  tokens: TokenService;
  mailer: Mailer;
  version: VersionResponse;
  now: () => Date;
}

/*
 * The narrow slices services take: a service names what it uses, routes hand it over, and no
 * service imports app.ts.
 */

/** The database and the clock. */
export interface DbClock {
  db: Db;
  now: () => Date;
}

/** Writing users: the database, the clock and the user limit (MAX_USERS, decision 11). */
export interface UserWriteDeps extends DbClock {
  maxUsers: number | undefined;
}

/** Sessions: the database and the token signer. */
export interface SessionDeps {
  db: Db;
  tokens: TokenService;
}

/** Telling people: the database (in-app notifications) and the mailer. */
export interface NotifyDeps {
  db: Db;
  mailer: Mailer;
}
