import { DEFAULT_LANGUAGE, type Language, languageTag } from "@carecampus/contract";
import i18n, { type BackendModule, type ResourceKey } from "i18next";
import { initReactI18next } from "react-i18next";
import { settings } from "../app/settings";

/** The configured languages; the first is the default (spec §9 multi-language). */
export const configuredLanguages: readonly Language[] = settings["multi-language"];

export function pickLanguage(preferred: Language | undefined): Language {
  if (preferred && configuredLanguages.includes(preferred)) return preferred;
  return configuredLanguages[0] ?? DEFAULT_LANGUAGE;
}

/** pt-br is `br` on the wire; the document language must be a real BCP 47 tag. */
export const htmlLang = (language: Language): string => languageTag(language);

/**
 * Each locale is two chunks of its own (vite.config.ts): what the login shows (`core`) and the
 * screens behind it (`rest`), loaded when its language is first needed — the login loads only
 * the language it shows and of it only its own texts (issue 13, e2e/tests/bundle.spec.ts).
 * i18next asks this backend at every later changeLanguage (both parts), and switches only once the
 * texts are there, so no key shows untranslated.
 */
type Part = () => Promise<Record<string, unknown>>;
const cores = import.meta.glob<Record<string, unknown>>("./locales/*.json", { query: "?core", import: "default" });
const rests = import.meta.glob<Record<string, unknown>>("./locales/*.json", { query: "?rest", import: "default" });
const part = (parts: Record<string, Part>, language: string) => parts[`./locales/${language}.json`];

const localeBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    const core = part(cores, language);
    const rest = part(rests, language);
    if (!core || !rest) {
      callback(new Error(`no locale ${language}`), false);
      return;
    }
    Promise.all([core(), rest()]).then(
      ([a, b]) => callback(null, { ...a, ...b } as ResourceKey),
      (error: Error) => callback(error, true),
    );
  },
};

/** The start language's part behind the login: loaded when first asked for (textsReady), once. */
let restOf: () => Promise<void> = () => Promise.resolve();
let rest: Promise<void> | undefined;

/**
 * Starts i18next in `language` with the login's texts: the app renders after this (main.tsx); the
 * rest of the language loads when the first screen behind the login does (textsReady), and is
 * added only once i18next has started (it may arrive first). No fallback language is loaded:
 * every locale has every key (npm run check:locales), so German would only cost the login its size.
 */
export function startI18n(language: Language): Promise<unknown> {
  document.documentElement.lang = htmlLang(language);
  const load = part(cores, language);
  const started = (async () => {
    const core = load ? await load() : {};
    return i18n
      .use(localeBackend)
      .use(initReactI18next)
      .init({
        lng: language,
        resources: { [language]: { translation: core as ResourceKey } },
        // The start language's texts are given; every other language comes from the backend.
        partialBundledLanguages: true,
        fallbackLng: false,
        load: "currentOnly",
        interpolation: { escapeValue: false },
        returnNull: false,
      });
  })();
  const more = part(rests, language);
  if (more) {
    restOf = () =>
      Promise.all([more(), started]).then(([texts]) => {
        i18n.addResourceBundle(language, "translation", texts, true, true);
      });
  }
  return started;
}

/**
 * Resolves once the start language's texts behind the login are there too: the shell waits for
 * them, and asks for them beside its own code (the login itself never loads them).
 */
export function textsReady(): Promise<void> {
  rest ??= restOf();
  return rest;
}

i18n.on("languageChanged", (lng) => {
  document.documentElement.lang = htmlLang(lng as Language);
});

export default i18n;
