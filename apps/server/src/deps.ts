import type { Theme, VersionResponse } from "@carecampus/contract";
import type { TokenService } from "./auth/tokens";
import type { Config, LimitSettings } from "./config";
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

/** The database and the clock: the current instant and the configured time zone (decision 16). */
export interface DbClock {
  db: Db;
  now: () => Date;
  zone: string;
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

/** Telling people: the database (in-app notifications and the mail outbox) and the clock. */
export interface NotifyDeps {
  db: Db;
  now: () => Date;
}

/** The login and request limits: their counters in the database, the clock and the settings. */
export interface LimitDeps {
  db: Db;
  now: () => Date;
  limits: LimitSettings;
}

/**
 * Checking passwords: sessions to sign and the limits that guard every password check; the
 * answer's user has the installation's theme (THEME) unless they chose one.
 */
export interface LoginDeps extends SessionDeps, LimitDeps {
  installationTheme: Theme;
}

/** The database and the clock of a wired app. */
export function dbClock(deps: AppDeps): DbClock {
  return { db: deps.database.db, now: deps.now, zone: deps.config.timeZone };
}

/** The limits of a wired app. */
export function limitDeps(deps: AppDeps): LimitDeps {
  return { db: deps.database.db, now: deps.now, limits: deps.config.limits };
}
