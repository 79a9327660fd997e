import { DEFAULT_TIME_ZONE, isTimeZone } from "./rules/calendar";
import type { Language, SettingName, Settings, Theme } from "./settings";

/*
 * The settings without zod: the value lists, the defaults and a reader of the strings the server
 * writes into the page. The browser reads its settings with these on the login path, which loads
 * no zod; settings.ts builds the server's schema from the same lists and defaults.
 */

/** Languages of the UI; pt-br travels as `br` (spec §1). */
export const LANGUAGES = ["de", "en", "fr", "es", "br"] as const;

/**
 * The BCP 47 tag of a language, for a document's lang attribute and the browser's formats: `br`
 * is Brazilian Portuguese on the wire (spec: pt-br is sent as br), never Breton.
 */
export function languageTag(language: (typeof LANGUAGES)[number]): string {
  return language === "br" ? "pt-BR" : language;
}
export const DEFAULT_LANGUAGE: Language = "de";

export const AVATARS = ["female", "male", "bee", "owl", "frog", "fox", "penguin", "pig", "monkey", "dolphin"] as const;

export const THEMES = ["carely", "dark", "contrast", "ocean"] as const;
export const DEFAULT_THEME: Theme = "carely";

/**
 * What each setting of spec §9 is when it is not set (settings.test.ts: the same as the schema's
 * defaults, for exactly the schema's names).
 */
export const SETTING_DEFAULTS = {
  "show-external-trainings": false,
  "expand-topic-progress": false,
  "multi-language": [DEFAULT_LANGUAGE] as readonly Language[],
  "show-points": false,
  "session-time-in-minutes": 10,
  "show-user-list-threshold": 40,
  theme: DEFAULT_THEME,
  "show-read-wiki-first": false,
  "show-acquired-at": false,
  "show-carely-qm-msg": false,
  "allow-make-questionnaires-again": false,
  "alternative-callback-url": "",
  "show-content-version": false,
  "show-question-type": true,
  "show-legal-compliance": false,
  "show-salutation": false,
  "time-zone": DEFAULT_TIME_ZONE,
};

/** The settings' names, in the order the server writes them. */
export const SETTING_NAMES = Object.keys(SETTING_DEFAULTS) as SettingName[];

const isLanguage = (v: string): v is Language => (LANGUAGES as readonly string[]).includes(v);

/** One setting from its string, or undefined when the string is not a value of it. */
function readValue(name: SettingName, raw: string): Settings[SettingName] | undefined {
  const fallback: unknown = SETTING_DEFAULTS[name as keyof typeof SETTING_DEFAULTS];
  const value = raw.trim();
  if (typeof fallback === "boolean") {
    if (value === "") return fallback;
    if (["true", "1"].includes(value)) return true;
    if (["false", "0"].includes(value)) return false;
    return undefined;
  }
  if (typeof fallback === "number") {
    const n = value === "" ? Number.NaN : Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  if (name === "multi-language") {
    const list = value.split(",").map((s) => s.trim());
    return list.every(isLanguage) && list.length > 0 ? [...new Set(list)] : undefined;
  }
  if (name === "theme") return (THEMES as readonly string[]).includes(value) ? (value as Theme) : undefined;
  if (name === "time-zone") return value === "" ? DEFAULT_TIME_ZONE : isTimeZone(value) ? value : undefined;
  return raw;
}

/**
 * The settings from the strings the server wrote into the page's <meta> tags (settingsToStrings):
 * a missing or unreadable value is its default. parseSettings (settings.ts) reads the same
 * strings on the server, with the schema's bounds; settings.test.ts keeps the two in step.
 */
export function readSettings(raw: Partial<Record<SettingName, string | undefined>>): Settings {
  const out: Record<string, unknown> = {
    ...SETTING_DEFAULTS,
    "multi-language": [...SETTING_DEFAULTS["multi-language"]],
  };
  for (const name of SETTING_NAMES) {
    const value = raw[name];
    const read = value === undefined ? undefined : readValue(name, value);
    if (read !== undefined) out[name] = read;
  }
  return out as Settings;
}
