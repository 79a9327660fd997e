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
 * Each locale is a chunk of its own, loaded when its language is first needed: the login loads
 * only the language it shows (issue 13). i18next asks this backend at init and at every
 * changeLanguage, and switches only once the texts are there, so no key shows untranslated.
 */
const locales = import.meta.glob<ResourceKey>("./locales/*.json", { import: "default" });

const localeBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    const load = locales[`./locales/${language}.json`];
    if (!load) {
      callback(new Error(`no locale ${language}`), false);
      return;
    }
    load().then(
      (texts) => callback(null, texts),
      (error: Error) => callback(error, true),
    );
  },
};

/**
 * Starts i18next in `language`, its texts loaded: the app renders after this (main.tsx).
 * No fallback language is loaded beside it: every locale has every key (npm run
 * check:locales), so German would only cost the login its size.
 */
export function startI18n(language: Language): Promise<unknown> {
  document.documentElement.lang = htmlLang(language);
  return i18n
    .use(localeBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: false,
      load: "currentOnly",
      interpolation: { escapeValue: false },
      returnNull: false,
    });
}

i18n.on("languageChanged", (lng) => {
  document.documentElement.lang = htmlLang(lng as Language);
});

export default i18n;
