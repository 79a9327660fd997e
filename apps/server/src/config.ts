import path from "node:path";
import {
  DEFAULT_RETENTION_YEARS,
  MIN_TOKEN_LIFETIME_SECONDS,
  parseContentLanguages,
  parseSettings,
  SETTING_NAMES,
  type Settings,
  settingEnvName,
  TOKEN_LIFETIME_SECONDS,
  TOKEN_REFRESH_LEAD_SECONDS,
} from "@carecampus/contract";
import { z } from "zod";
import { serverPath } from "./paths";
import { parseSsoProviders, type SsoProvider } from "./sso/settings";

const optionalInt = z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().optional());
const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : v === "true" || v === "1"));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
  /** PostgreSQL: connections of each server process's pool. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  JWT_SECRET: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(32).optional()),
  TOKEN_LIFETIME_SECONDS: z.coerce
    .number()
    .int()
    .min(MIN_TOKEN_LIFETIME_SECONDS, {
      error: `at least ${MIN_TOKEN_LIFETIME_SECONDS} seconds: the web client refreshes a token ${TOKEN_REFRESH_LEAD_SECONDS} s before it expires, so a shorter lifetime leaves pages with an expired token`,
    })
    .max(86_400)
    .default(TOKEN_LIFETIME_SECONDS),
  SMTP_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
  SMTP_FROM: z.string().default("CareCampus <no-reply@carecampus.local>"),
  /** The installation's name on the evidence report for an inspector (issue 29). */
  INSTALLATION_NAME: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.string().trim().max(200).default("CareCampus"),
  ),
  MAX_USERS: optionalInt,
  MAX_FACILITIES: optionalInt,
  /** Unset: on PGlite (the embedded evaluation default) on, on PostgreSQL off (decision 15). */
  DEMO_DATA: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1")),
  ADMIN_PASSWORD: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  PGLITE_FSYNC: flag(true),
  /** Test servers only: cheap password hashes (security/passwords.ts), never for real accounts. */
  TEST_PASSWORD_HASHING: flag(false),
  NOTIFICATION_JOB: flag(true),
  /** `npm run serve`: this many server processes on the port (node:cluster); PostgreSQL only. */
  WORKERS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(64).default(1)),
  /** Count database queries; SIGUSR2 prints them with the CPU time used (for `npm run bench`). */
  QUERY_STATS: flag(false),
  /** `npm run bench` only: the answer POST's floor route (learning/floor.ts); off unless set. */
  BENCH_FLOOR_ROUTE: flag(false),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(15).max(1440).default(15),
  LOGIN_IP_MAX_FAILURES: z.coerce.number().int().min(1).default(50),
  API_IP_MAX_ERRORS: z.coerce.number().int().min(1).default(1000),
  UPLOAD_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Public certificate verifications (/v/{code} and its JSON) a minute per IP. */
  VERIFY_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  /**
   * The address people reach this installation at (behind a reverse proxy: the proxy's
   * https address), without a trailing slash; the certificates' QR codes point to it.
   */
  PUBLIC_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return undefined;
        let url: URL | null = null;
        try {
          url = new URL(v);
        } catch {}
        if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
          ctx.addIssue({
            code: "custom",
            message: `"${v}" is not an absolute http(s) address without query, fragment or credentials (https://training.example.org)`,
          });
          return z.NEVER;
        }
        // One form whatever was written: no trailing slash, so PUBLIC_URL/v/<code> has one slash.
        return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
      }),
  ),
  /** 0: no quota. */
  MEDIA_QUOTA_MB: z.coerce.number().int().min(0).default(10_240),
  /** The content languages translations may be written in (issue 31); default: the UI languages. */
  CONTENT_LANGUAGES: z.string().optional(),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const value = (v ?? "").trim().toLowerCase();
      if (value === "" || value === "false") return 0;
      // Before hop counts: `true` meant one proxy in front.
      if (value === "true") return 1;
      if (/^[0-9]{1,2}$/.test(value)) return Number(value);
      ctx.addIssue({ code: "custom", message: "the number of proxies in front of the server (0-99), or false" });
      return z.NEVER;
    }),
  /**
   * Years a former employee's training record is kept, counted from the end of the year they
   * left or their last certificate expired, the later (README "Retention").
   */
  RETENTION_YEARS: z.coerce
    .number()
    .int({ error: "a whole number of years" })
    .min(1, { error: "at least 1 year: the record proves trainings to inspectors" })
    .max(100)
    .default(DEFAULT_RETENTION_YEARS),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: z.string().optional(),
  /* External courses of a partner provider (docs/partner-contract.md). */
  EXTERNAL_COURSES_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
  EXTERNAL_COURSES_CLIENT_ID: z.string().default(""),
  EXTERNAL_COURSES_CLIENT_SECRET: z.string().default(""),
  EXTERNAL_COURSES_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
  EXTERNAL_COURSES_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  EXTERNAL_COURSES_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Origins besides the partner's own that course icons may come from, comma-separated (https://cdn.example). */
  EXTERNAL_COURSES_ICON_ORIGINS: z
    .string()
    .default("")
    .transform((v, ctx) => {
      const origins: string[] = [];
      for (const item of v.split(",").map((s) => s.trim())) {
        if (item === "") continue;
        let origin: string | null = null;
        try {
          const url = new URL(item);
          if (/^https?:$/.test(url.protocol) && url.origin === item.replace(/\/$/, "")) origin = url.origin;
        } catch {}
        if (origin === null) {
          ctx.addIssue({ code: "custom", message: `"${item}" is not an origin (https://host[:port])` });
          return z.NEVER;
        }
        origins.push(origin);
      }
      return origins;
    }),
  /** production: course icons only over https (partner-courses/icons.ts). */
  NODE_ENV: z.string().optional(),
  EXTERNAL_COURSES_CERTIFY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const map = new Map<string, string>();
      for (const pair of (v ?? "")
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        const m = /^([A-Za-z0-9._-]{1,100})=([a-z0-9][a-z0-9-]{0,99})$/.exec(pair);
        if (!m) {
          ctx.addIssue({ code: "custom", message: `"${pair}" is not partner-course-id=training-key` });
          return z.NEVER;
        }
        map.set(m[1] as string, m[2] as string);
      }
      return map;
    }),
  /** Issue 31: a machine translation service for suggestions (LibreTranslate's protocol); unset: none. */
  MACHINE_TRANSLATION_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
  MACHINE_TRANSLATION_API_KEY: z.string().default(""),
  MACHINE_TRANSLATION_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Demo only: start the reference partner (the test peer, partner-peer/) inside this process. */
  PARTNER_PEER: flag(false),
  PARTNER_PEER_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Issue 32: single sign-on's identity providers, as JSON here or in the file SSO_CONFIG_FILE names (sso/settings.ts). */
  SSO_PROVIDERS: z.string().optional(),
  SSO_CONFIG_FILE: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  /** Demo only: start the reference identity provider (the test peer, oidc-peer/) inside this process. */
  OIDC_PEER: flag(false),
  OIDC_PEER_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** The facility (by name) whose people the demo provider logs in. */
  OIDC_PEER_FACILITY: z.string().trim().min(1).default("Haus Sonnenhof"),
  /** Issue 29: every new certificate also as a signed Open Badges 3.0 credential (credentials/). */
  VERIFIABLE_CREDENTIALS: flag(false),
  /** The Ed25519 signing key: a Multikey secretKeyMultibase (z…) or an Ed25519 JWK with "d"; else generated once. */
  CREDENTIALS_KEY: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_POOL_SIZE: the connections of this process's pool on PostgreSQL. */
  databasePoolSize: number;
  jwtSecret: string | undefined;
  /** QUERY_STATS: count queries, print them and the CPU time on SIGUSR2. */
  queryStats: boolean;
  /** BENCH_FLOOR_ROUTE: registers POST /bench/floor/… (learning/floor.ts), for `npm run bench` only. */
  benchFloorRoute: boolean;
  tokenLifetimeSeconds: number;
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** INSTALLATION_NAME: who runs this CareCampus, printed on the evidence report. */
  installationName: string;
  maxUsers: number | undefined;
  maxFacilities: number | undefined;
  demoData: boolean;
  adminPassword: string | undefined;
  pgliteFsync: boolean;
  /** TEST_PASSWORD_HASHING: argon2id at 1 MiB and one pass, for test servers (e2e/serve.mjs). */
  testPasswordHashing: boolean;
  /** Runs the background jobs (jobs/catalogue.ts: expiry notices, mail sending) in this process. */
  notificationJob: boolean;
  /** WORKERS: server processes main.ts starts on the one port (node:cluster); more than 1 needs PostgreSQL. */
  workers: number;
  /** Login limits (security/limits.ts), counted in the database for every server on it. */
  limits: LimitSettings;
  /**
   * MEDIA_QUOTA_MB in bytes: uploads are refused (1109) once the media stored by the whole
   * installation would pass it (storage/quota.ts); null: no quota.
   */
  mediaQuotaBytes: number | null;
  /** Sessions end this long after their login, however often refreshed (SESSION_MAX_HOURS). */
  sessionMaxSeconds: number;
  /**
   * TRUST_PROXY: how many reverse proxies stand in front of the server; the client's IP (for
   * the limits and the security log) is read that many hops back in X-Forwarded-For. 0: none,
   * the peer's address is the client's.
   */
  trustProxyHops: number;
  /**
   * PUBLIC_URL without a trailing slash: the address certificates print and their QR codes hold
   * (PUBLIC_URL/v/<code>); unset, http://localhost:PORT (for local use only).
   */
  publicUrl: string;
  logLevel: string;
  /** RETENTION_YEARS: how long a former employee's training record is kept (privacy/retention.ts). */
  retentionYears: number;
  webDist: string;
  /**
   * CONTENT_LANGUAGES (default: the interface languages of multi-language): the languages questions
   * may be translated into, German (the binding original) not among them. Any ISO 639 code, also
   * one the interface does not speak (tr, pl, uk, ar).
   */
  contentLanguages: string[];
  /** MACHINE_TRANSLATION_URL and its key and timeout: the service that suggests translations; null: none. */
  machineTranslation: MachineTranslationConfig | null;
  /**
   * TIME_ZONE (default Europe/Berlin): the zone every calendar day is counted in, never the
   * process's TZ (ARCHITECTURE decision 16). Also served to the browser as a runtime setting.
   */
  timeZone: string;
  settings: Settings;
  /**
   * The partner provider of external courses; null when none is configured. The feature is on
   * only with the show-external-trainings setting too (partner-courses/feature.ts).
   */
  partner: PartnerConfig | null;
  /** PARTNER_PEER (demo): main.ts starts the reference partner and points `partner` at it. */
  partnerPeer: (Omit<PartnerConfig, "url" | "clientId" | "clientSecret"> & { port: number }) | null;
  /** VERIFIABLE_CREDENTIALS: certificates also as signed Open Badges 3.0 credentials. */
  verifiableCredentials: boolean;
  /** SSO_PROVIDERS / SSO_CONFIG_FILE: the identity providers of single sign-on (none: the password login only). */
  ssoProviders: SsoProvider[];
  /** OIDC_PEER (demo): main.ts starts the reference identity provider and adds it as provider `demo`. */
  oidcPeer: { port: number; facility: string } | null;
  /** CREDENTIALS_KEY: the signing key as configured; undefined: generated once and kept. */
  credentialsKey: string | undefined;
}

/** The partner of external courses (README "External courses"); its secret never leaves the server. */
/** The machine translation service (issue 31, authoring/machine-translation.ts). */
export interface MachineTranslationConfig {
  /** Its base address, without a trailing slash. */
  url: string;
  apiKey: string | null;
  timeoutMs: number;
}

export interface PartnerConfig {
  /** The partner's API base, server to server (EXTERNAL_COURSES_URL). */
  url: string;
  clientId: string;
  clientSecret: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Further attempts of an idempotent call (GET) after the first. */
  retries: number;
  /** How long a training's course list is kept. */
  cacheSeconds: number;
  /** Partner course id → the key of the training whose certificate its completion issues. */
  certify: ReadonlyMap<string, string>;
  /** Origins besides the partner's own that course icons may come from (EXTERNAL_COURSES_ICON_ORIGINS). */
  iconOrigins: readonly string[];
  /** Course icons over https only (NODE_ENV=production). */
  httpsOnly: boolean;
}

/** The login and request limits (README "Configuration"). */
export interface LimitSettings {
  /** LOGIN_MAX_FAILURES: wrong passwords for one account before it is locked. */
  maxFailures: number;
  /** LOGIN_LOCK_MINUTES: the first lock; each further failure in the day doubles it, up to 4×. */
  lockMinutes: number;
  /** LOGIN_IP_MAX_FAILURES: wrong passwords from one IP within LOGIN_LOCK_MINUTES before it waits. */
  ipMaxFailures: number;
  /** LOGIN_RATE_LIMIT: forgot-password requests per minute, per IP and per login. */
  forgotPerMinute: number;
  /**
   * API_IP_MAX_ERRORS: API answers 404 and refused tokens (401) for one IP within
   * LOGIN_LOCK_MINUTES before its API requests wait (security/scan-limit.ts).
   */
  ipMaxErrors: number;
  /** UPLOAD_RATE_PER_MINUTE: media uploads (question media and wiki images together) per minute, per user. */
  uploadsPerMinute: number;
  /** VERIFY_RATE_PER_MINUTE: public certificate verifications (page and JSON together) per minute, per IP. */
  verifyPerMinute: number;
}

export class ConfigError extends Error {}

/** Environment → typed config, validated at boot; a bad value stops the start with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.WORKERS > 1 && e.DATABASE_URL === undefined) {
    throw new ConfigError(
      "Invalid configuration:\n  WORKERS: more than one server process needs DATABASE_URL (PGlite's data directory opens in one process only)",
    );
  }
  const rawSettings = Object.fromEntries(SETTING_NAMES.map((n) => [n, env[settingEnvName(n)]]));
  let settings: Settings;
  try {
    settings = parseSettings(rawSettings);
  } catch (err) {
    const issues = err instanceof z.ZodError ? err.issues : [];
    const lines = issues.map((i) => `  ${settingEnvName(i.path[0] as never)}: ${i.message}`);
    throw new ConfigError(`Invalid setting:\n${lines.join("\n")}`);
  }
  let contentLanguages: string[];
  try {
    contentLanguages = parseContentLanguages(e.CONTENT_LANGUAGES ?? settings["multi-language"].join(","));
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  CONTENT_LANGUAGES: ${(err as Error).message}`);
  }
  let ssoProviders: SsoProvider[];
  try {
    ssoProviders = parseSsoProviders(e.SSO_PROVIDERS, e.SSO_CONFIG_FILE);
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  ${(err as Error).message}`);
  }
  const partnerCalls = {
    timeoutMs: e.EXTERNAL_COURSES_TIMEOUT_MS,
    retries: e.EXTERNAL_COURSES_RETRIES,
    cacheSeconds: e.EXTERNAL_COURSES_CACHE_SECONDS,
    certify: e.EXTERNAL_COURSES_CERTIFY,
    iconOrigins: e.EXTERNAL_COURSES_ICON_ORIGINS,
    httpsOnly: e.NODE_ENV === "production",
  };
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    jwtSecret: e.JWT_SECRET,
    tokenLifetimeSeconds: e.TOKEN_LIFETIME_SECONDS,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    installationName: e.INSTALLATION_NAME.normalize("NFC"),
    maxUsers: e.MAX_USERS,
    maxFacilities: e.MAX_FACILITIES,
    // A production database must never get users with a published password: on PostgreSQL the
    // demo data needs DEMO_DATA=true said explicitly.
    demoData: e.DEMO_DATA ?? e.DATABASE_URL === undefined,
    adminPassword: e.ADMIN_PASSWORD,
    pgliteFsync: e.PGLITE_FSYNC,
    testPasswordHashing: e.TEST_PASSWORD_HASHING,
    notificationJob: e.NOTIFICATION_JOB,
    workers: e.WORKERS,
    queryStats: e.QUERY_STATS,
    benchFloorRoute: e.BENCH_FLOOR_ROUTE,
    limits: {
      maxFailures: e.LOGIN_MAX_FAILURES,
      lockMinutes: e.LOGIN_LOCK_MINUTES,
      ipMaxFailures: e.LOGIN_IP_MAX_FAILURES,
      forgotPerMinute: e.LOGIN_RATE_LIMIT,
      ipMaxErrors: e.API_IP_MAX_ERRORS,
      uploadsPerMinute: e.UPLOAD_RATE_PER_MINUTE,
      verifyPerMinute: e.VERIFY_RATE_PER_MINUTE,
    },
    mediaQuotaBytes: e.MEDIA_QUOTA_MB === 0 ? null : e.MEDIA_QUOTA_MB * 1024 * 1024,
    sessionMaxSeconds: Math.round(e.SESSION_MAX_HOURS * 3600),
    trustProxyHops: e.TRUST_PROXY,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    retentionYears: e.RETENTION_YEARS,
    webDist: path.resolve(e.WEB_DIST ?? serverPath("../web/dist")),
    contentLanguages,
    machineTranslation: e.MACHINE_TRANSLATION_URL
      ? {
          url: e.MACHINE_TRANSLATION_URL.replace(/\/+$/, ""),
          apiKey: e.MACHINE_TRANSLATION_API_KEY || null,
          timeoutMs: e.MACHINE_TRANSLATION_TIMEOUT_MS,
        }
      : null,
    timeZone: settings["time-zone"],
    settings,
    partner: e.EXTERNAL_COURSES_URL
      ? {
          url: e.EXTERNAL_COURSES_URL.replace(/\/+$/, ""),
          clientId: e.EXTERNAL_COURSES_CLIENT_ID,
          clientSecret: e.EXTERNAL_COURSES_CLIENT_SECRET,
          ...partnerCalls,
        }
      : null,
    partnerPeer: e.PARTNER_PEER ? { port: e.PARTNER_PEER_PORT, ...partnerCalls } : null,
    verifiableCredentials: e.VERIFIABLE_CREDENTIALS,
    credentialsKey: e.CREDENTIALS_KEY,
    ssoProviders,
    oidcPeer: e.OIDC_PEER ? { port: e.OIDC_PEER_PORT, facility: e.OIDC_PEER_FACILITY } : null,
  };
}
