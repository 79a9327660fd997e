import { DEFAULT_LANGUAGE, Language } from "@carecampus/contract";
// The web app's locale files are the one source of every text a user reads, mails included.
// The web package exports them (its package.json "exports") and the server declares it as a
// dependency, so no path reaches into the web app's folders; the server bundle (build.mjs,
// esbuild) takes them in like any other import.
import br from "@carecampus/web/locales/br.json";
import de from "@carecampus/web/locales/de.json";
import en from "@carecampus/web/locales/en.json";
import es from "@carecampus/web/locales/es.json";
import fr from "@carecampus/web/locales/fr.json";

type MailTexts = typeof de.mail;
const TEXTS: Record<Language, MailTexts> = { de: de.mail, en: en.mail, fr: fr.mail, es: es.mail, br: br.mail };

type Locale = typeof de;
const LOCALES: Record<Language, Locale> = { de, en, fr, es, br };

/**
 * A language's whole locale file (German when the language is unknown), for a feature whose mail
 * texts live in its own namespace beside its screen's texts (e.g. `revoke.mail`).
 */
export function localeTexts(language: Language): Locale {
  return LOCALES[language] ?? LOCALES[DEFAULT_LANGUAGE];
}

/** A mail's two parts. */
export interface MailContent {
  subject: string;
  text: string;
}

/** The language a user reads mails in: the preference when it is one we have, else German. */
export function mailLanguage(preference: string | null | undefined): Language {
  return Language.catch(DEFAULT_LANGUAGE).parse(preference ?? DEFAULT_LANGUAGE);
}

/** The texts of a language (German when the language is unknown). */
export function mailTexts(language: Language): MailTexts {
  return TEXTS[language] ?? TEXTS[DEFAULT_LANGUAGE];
}

/** i18next's {{name}} placeholders, filled in (an unknown one stays visible rather than vanishing). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** Body lines joined as a plain-text mail, with the automatic-message footer. */
export function mailBody(language: Language, lines: string[]): string {
  return [...lines, "", "-- ", mailTexts(language).footer, ""].join("\n");
}
