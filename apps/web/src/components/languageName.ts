import { contentLanguageTag, languageTag } from "@carecampus/contract";
import { configuredLanguages } from "../i18n";

/** A content language's name in the interface's language `ui` ("Türkisch"), and in itself when asked ("Türkçe – Türkisch"). */
export function languageName(code: string, ui: string, withOwn = false): string {
  const uiLanguage = configuredLanguages.find((l) => l === ui) ?? "de";
  const tag = contentLanguageTag(code);
  const here = new Intl.DisplayNames([languageTag(uiLanguage)], { type: "language" }).of(tag) ?? code;
  if (!withOwn) return here;
  const own = new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? code;
  return own === here ? here : `${own} – ${here}`;
}
