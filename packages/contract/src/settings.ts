import { z } from "zod";
import { DEFAULT_TIME_ZONE, isTimeZone } from "./rules/calendar";

/** Languages of the UI; pt-br travels as `br` (spec §1). */
export const LANGUAGES = ["de", "en", "fr", "es", "br"] as const;
export const Language = z.enum(LANGUAGES);
export type Language = z.infer<typeof Language>;
export const DEFAULT_LANGUAGE: Language = "de";

export const AVATARS = ["female", "male", "bee", "owl", "frog", "fox", "penguin", "pig", "monkey", "dolphin"] as const;
export const Avatar = z.enum(AVATARS);
export type Avatar = z.infer<typeof Avatar>;

export const THEMES = ["carely", "dark", "contrast", "ocean"] as const;
export const Theme = z.enum(THEMES);
export type Theme = z.infer<typeof Theme>;
export const DEFAULT_THEME: Theme = "carely";

const bool = (fallback: boolean) =>
  z
    .union([z.boolean(), z.enum(["true", "false", "1", "0", ""])])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : v === true || v === "true" || v === "1"));

const languagesList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const list = (v ?? "de")
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

/**
 * Runtime settings of spec §9. The server reads them from environment variables named
 * after the setting (show-points → SHOW_POINTS) and writes them as <meta> tags into
 * index.html; the browser reads the same names back from the tags.
 */
export const SettingsSchema = z.object({
  "show-external-trainings": bool(false),
  "expand-topic-progress": bool(false),
  "multi-language": languagesList,
  "show-points": bool(false),
  "session-time-in-minutes": z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(10),
  "show-user-list-threshold": z.coerce.number().int().min(0).default(40),
  theme: Theme.default(DEFAULT_THEME),
  "show-read-wiki-first": bool(false),
  "show-acquired-at": bool(false),
  "show-carely-qm-msg": bool(false),
  "allow-make-questionnaires-again": bool(false),
  /** Where the app sends a user who logs out: e.g. the intranet portal their login link came from. */
  "alternative-callback-url": z
    .string()
    .trim()
    .default("")
    .refine((v) => v === "" || (/^https?:\/\//i.test(v) && URL.canParse(v)), "must be an absolute http(s) address"),
  /** The content package's version in the version dialog (GET /content/CurrentContentVersion). */
  "show-content-version": bool(false),
  /** Above the answers: 'one answer is right' or 'several answers may be right'. */
  "show-question-type": bool(true),
  "show-legal-compliance": bool(false),
  "show-salutation": bool(false),
  /**
   * The one clock's zone (ARCHITECTURE decision 16): every calendar day — expiry colours, jobs,
   * dates shown and exported — is counted in it, on the server and in the browser.
   */
  "time-zone": z
    .string()
    .optional()
    .transform((v, ctx) => {
      const zone = v?.trim() || DEFAULT_TIME_ZONE;
      if (!isTimeZone(zone)) {
        ctx.addIssue({ code: "custom", message: `unknown time zone "${zone}" (an IANA name such as Europe/Berlin)` });
        return z.NEVER;
      }
      return zone;
    }),
});
export type Settings = z.output<typeof SettingsSchema>;
export type SettingName = keyof Settings;
export const SETTING_NAMES = Object.keys(SettingsSchema.shape) as SettingName[];

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
