import path from "node:path";
import { parseSettings, SETTING_NAMES, type Settings, settingEnvName } from "@carecampus/contract";
import { z } from "zod";
import { serverPath } from "./paths";

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
  JWT_SECRET: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(32).optional()),
  TOKEN_LIFETIME_SECONDS: z.coerce.number().int().min(30).max(86_400).default(300),
  SMTP_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
  SMTP_FROM: z.string().default("CareCampus <no-reply@carecampus.local>"),
  MAX_USERS: optionalInt,
  MAX_FACILITIES: optionalInt,
  DEMO_DATA: flag(true),
  ADMIN_PASSWORD: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  PGLITE_FSYNC: flag(true),
  NOTIFICATION_JOB: flag(true),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  tokenLifetimeSeconds: number;
  smtpUrl: string | undefined;
  smtpFrom: string;
  maxUsers: number | undefined;
  maxFacilities: number | undefined;
  demoData: boolean;
  adminPassword: string | undefined;
  pgliteFsync: boolean;
  /** Runs the background jobs (jobs/catalogue.ts: expiry notices, mail sending) in this process. */
  notificationJob: boolean;
  /** Login and forgot-password attempts per minute, per IP and per login. */
  loginRateLimit: number;
  logLevel: string;
  webDist: string;
  /**
   * TIME_ZONE (default Europe/Berlin): the zone every calendar day is counted in, never the
   * process's TZ (ARCHITECTURE decision 16). Also served to the browser as a runtime setting.
   */
  timeZone: string;
  settings: Settings;
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
  const rawSettings = Object.fromEntries(SETTING_NAMES.map((n) => [n, env[settingEnvName(n)]]));
  let settings: Settings;
  try {
    settings = parseSettings(rawSettings);
  } catch (err) {
    const issues = err instanceof z.ZodError ? err.issues : [];
    const lines = issues.map((i) => `  ${settingEnvName(i.path[0] as never)}: ${i.message}`);
    throw new ConfigError(`Invalid setting:\n${lines.join("\n")}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET,
    tokenLifetimeSeconds: e.TOKEN_LIFETIME_SECONDS,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    maxUsers: e.MAX_USERS,
    maxFacilities: e.MAX_FACILITIES,
    demoData: e.DEMO_DATA,
    adminPassword: e.ADMIN_PASSWORD,
    pgliteFsync: e.PGLITE_FSYNC,
    notificationJob: e.NOTIFICATION_JOB,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? serverPath("../web/dist")),
    timeZone: settings["time-zone"],
    settings,
  };
}
