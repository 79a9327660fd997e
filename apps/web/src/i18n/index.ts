import { DEFAULT_LANGUAGE, type Language } from "@carecampus/contract";
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { settings } from "../app/settings";
import br from "./locales/br.json";
import de from "./locales/de.json";
import en from "./locales/en.json";
import es from "./locales/es.json";
import fr from "./locales/fr.json";

const stored = (() => {
  try {
    return (JSON.parse(localStorage.getItem("carecampus.preferences") ?? "null") as { language?: Language } | null)
      ?.language;
  } catch {
    return undefined;
  }
})();

/** The configured languages; the first is the default (spec §9 multi-language). */
export const configuredLanguages: readonly Language[] = settings["multi-language"];

export function pickLanguage(preferred: Language | undefined): Language {
  if (preferred && configuredLanguages.includes(preferred)) return preferred;
  return configuredLanguages[0] ?? DEFAULT_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources: {
    de: { translation: de },
    en: { translation: en },
    fr: { translation: fr },
    es: { translation: es },
    br: { translation: br },
  },
  lng: pickLanguage(stored),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** pt-br is `br` on the wire; the document language must be a real BCP 47 tag. */
export function htmlLang(language: Language): string {
  return language === "br" ? "pt-BR" : language;
}

i18n.on("languageChanged", (lng) => {
  document.documentElement.lang = htmlLang(lng as Language);
});
document.documentElement.lang = htmlLang(i18n.language as Language);

export default i18n;
