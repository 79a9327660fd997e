import { DEFAULT_LANGUAGE, type Language } from "@carecampus/contract";
// The verification pages speak the viewer's language with the web app's texts (as the privacy
// summary does, privacy/texts.ts): the locale files are the one source of every text a user reads.
import br from "@carecampus/web/locales/br.json";
import de from "@carecampus/web/locales/de.json";
import en from "@carecampus/web/locales/en.json";
import es from "@carecampus/web/locales/es.json";
import fr from "@carecampus/web/locales/fr.json";

export type VerifyTexts = typeof de.verify;
const TEXTS: Record<Language, VerifyTexts> = {
  de: de.verify,
  en: en.verify,
  fr: fr.verify,
  es: es.verify,
  br: br.verify,
};

/** The texts of a language (German when unknown). */
export function verifyTexts(language: Language): VerifyTexts {
  return TEXTS[language] ?? TEXTS[DEFAULT_LANGUAGE];
}

/** An Accept-Language range's primary tag as one of ours: Portuguese (pt, pt-BR, pt-PT) is `br`; `br` itself is Breton. */
function ours(range: string): Language | null {
  const primary = range.toLowerCase().split("-")[0];
  if (primary === "pt") return "br";
  return primary === "de" || primary === "en" || primary === "fr" || primary === "es" ? primary : null;
}

/**
 * The viewer's language among the five by the browser's Accept-Language (RFC 9110: the highest
 * q first, in the order given where equal; q=0 refuses); German when none of ours is asked for.
 */
export function pageLanguage(acceptLanguage: string | undefined): Language {
  const ranges = (acceptLanguage ?? "")
    .split(",")
    .slice(0, 50)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.tag !== "" && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const r of ranges) {
    const language = ours(r.tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}
