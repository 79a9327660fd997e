import type { Language } from "@carecampus/contract";
// The export's summary speaks the person's language with the web app's texts (as the mails do,
// mail/templates.ts): the locale files are the one source of every text a user reads.
import br from "@carecampus/web/locales/br.json";
import de from "@carecampus/web/locales/de.json";
import en from "@carecampus/web/locales/en.json";
import es from "@carecampus/web/locales/es.json";
import fr from "@carecampus/web/locales/fr.json";

type SummaryTexts = typeof de.privacy.summary & Pick<typeof de.privacy, "part" | "partWhat">;
const texts = (l: typeof de): SummaryTexts => ({
  ...l.privacy.summary,
  part: l.privacy.part,
  partWhat: l.privacy.partWhat,
});
const TEXTS: Record<Language, SummaryTexts> = {
  de: texts(de),
  en: texts(en),
  fr: texts(fr),
  es: texts(es),
  br: texts(br),
};

/** The summary's texts in a language (German when unknown). */
export function summaryTexts(language: Language): SummaryTexts {
  return TEXTS[language] ?? TEXTS.de;
}
