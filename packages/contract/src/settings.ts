import { z } from "zod";
import { isTimeZone } from "./rules/calendar";
import { AVATARS, LANGUAGES, SETTING_DEFAULTS, SETTING_NAMES, THEMES } from "./settings-core";

/** Languages of the UI; pt-br travels as `br` (spec §1). The lists are in settings-core.ts. */
export const Language = z.enum(LANGUAGES);
export type Language = z.infer<typeof Language>;

export const Avatar = z.enum(AVATARS);
export type Avatar = z.infer<typeof Avatar>;

export const Theme = z.enum(THEMES);
export type Theme = z.infer<typeof Theme>;

const bool = (fallback: boolean) =>
  z
    .union([z.boolean(), z.enum(["true", "false", "1", "0", ""])])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : v === true || v === "true" || v === "1"));

const languagesList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const list = (v ?? SETTING_DEFAULTS["multi-language"].join(","))
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = list.filter((l) => !Language.safeParse(l).success);
    if (bad.length > 0 || list.length === 0) {
      ctx.addIssue({ code: "custom", message: `unknown language(s): ${bad.join(", ") || "(empty)"}` });
      return z.NEVER;
    }
    return [...new Set(list)] as Language[];
  });

const D = SETTING_DEFAULTS;

/**
 * Runtime settings of spec §9. The server reads them from environment variables named
 * after the setting (show-points → SHOW_POINTS) and writes them as <meta> tags into
 * index.html; the browser reads the same names back from the tags (readSettings of
 * settings-core.ts, without zod). The defaults are settings-core.ts's.
 */
export const SettingsSchema = z.object({
  "show-external-trainings": bool(D["show-external-trainings"]),
  "expand-topic-progress": bool(D["expand-topic-progress"]),
  "multi-language": languagesList,
  "show-points": bool(D["show-points"]),
  "session-time-in-minutes": z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(D["session-time-in-minutes"]),
  "show-user-list-threshold": z.coerce.number().int().min(0).default(D["show-user-list-threshold"]),
  theme: Theme.default(D.theme),
  "show-read-wiki-first": bool(D["show-read-wiki-first"]),
  "show-acquired-at": bool(D["show-acquired-at"]),
  "show-carely-qm-msg": bool(D["show-carely-qm-msg"]),
  "allow-make-questionnaires-again": bool(D["allow-make-questionnaires-again"]),
  /** Where the app sends a user who logs out: e.g. the intranet portal their login link came from. */
  "alternative-callback-url": z
    .string()
    .trim()
    .default(D["alternative-callback-url"])
    .refine((v) => v === "" || (/^https?:\/\//i.test(v) && URL.canParse(v)), "must be an absolute http(s) address"),
  /** The content package's version in the version dialog (GET /content/CurrentContentVersion). */
  "show-content-version": bool(D["show-content-version"]),
  /** Above the answers: 'one answer is right' or 'several answers may be right'. */
  "show-question-type": bool(D["show-question-type"]),
  "show-legal-compliance": bool(D["show-legal-compliance"]),
  "show-salutation": bool(D["show-salutation"]),
  /**
   * The one clock's zone (ARCHITECTURE decision 16): every calendar day — expiry colours, jobs,
   * dates shown and exported — is counted in it, on the server and in the browser.
   */
  "time-zone": z
    .string()
    .optional()
    .transform((v, ctx) => {
      const zone = v?.trim() || D["time-zone"];
      if (!isTimeZone(zone)) {
        ctx.addIssue({ code: "custom", message: `unknown time zone "${zone}" (an IANA name such as Europe/Berlin)` });
        return z.NEVER;
      }
      return zone;
    }),
});
export type Settings = z.output<typeof SettingsSchema>;
export type SettingName = keyof Settings;

/** show-points → SHOW_POINTS */
export function settingEnvName(name: SettingName): string {
  return name.toUpperCase().replaceAll("-", "_");
}

/** Parses raw strings (from env or meta tags); unknown or empty values fall back to defaults. */
export function parseSettings(raw: Partial<Record<SettingName, string | undefined>>): Settings {
  return SettingsSchema.parse(raw);
}

/** Serialises settings back to the strings written into meta tags. */
export function settingsToStrings(settings: Settings): Record<SettingName, string> {
  const out = {} as Record<SettingName, string>;
  for (const name of SETTING_NAMES) {
    const v = settings[name];
    out[name] = Array.isArray(v) ? v.join(",") : String(v);
  }
  return out;
}
