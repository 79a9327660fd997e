/*
 * Content in the learner's language (issue 31): translations beside the German original, which
 * stays binding. A translation has a status; learners see only published ones that translate the
 * German text as it is now (its source version) and cover the whole question.
 */

/** The language content is written in, and the one every learner can always have. */
export const SOURCE_LANGUAGE = "de";

/** draft: being written; machine: a machine's suggestion, unseen by learners; reviewed: checked; published: shown. */
export const TRANSLATION_STATUSES = ["draft", "machine", "reviewed", "published"] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];

/** What besides questions carries a translated name (issue 31): a topic, a training, a questionnaire. */
export const NAME_TRANSLATION_KINDS = ["topic", "training", "questionnaire"] as const;
export type NameTranslationKind = (typeof NAME_TRANSLATION_KINDS)[number];

/** A content language code: an ISO 639 language (two or three lowercase letters), e.g. tr, pl, uk, ar. */
export const CONTENT_LANGUAGE_PATTERN = /^[a-z]{2,3}$/;

/**
 * The BCP 47 tag of a content language, for `lang` attributes, language names and voices: the
 * interface's codes as the interface means them ("br" is Brazilian Portuguese, pt-BR, as in
 * MULTI_LANGUAGE — so Breton cannot be a content language), every other code as it is.
 */
export function contentLanguageTag(code: string): string {
  return code === "br" ? "pt-BR" : code;
}

/** Languages written right to left among those a facility may name. */
const RIGHT_TO_LEFT = new Set(["ar", "fa", "he", "ur", "ps", "ku", "yi", "dv"]);

export function isRightToLeft(lang: string): boolean {
  return RIGHT_TO_LEFT.has(lang);
}

/**
 * Parses CONTENT_LANGUAGES ("en,tr,pl"): each a content language code, German left out (it is the
 * source), duplicates dropped. Throws on a code that is not one.
 */
export function parseContentLanguages(value: string): string[] {
  const codes = value
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "");
  for (const code of codes) {
    if (!CONTENT_LANGUAGE_PATTERN.test(code)) throw new Error(`"${code}" is not a language code (e.g. en, tr, pl)`);
  }
  return [...new Set(codes.filter((c) => c !== SOURCE_LANGUAGE))];
}

/**
 * Whether pages (wiki, tutorial) may come in `lang` here: an interface language or one of the
 * installation's content languages (issue 31).
 */
export function isPageLanguage(lang: string, contentLanguages: readonly string[]): boolean {
  return (["de", "en", "fr", "es", "br"] as readonly string[]).includes(lang) || contentLanguages.includes(lang);
}
