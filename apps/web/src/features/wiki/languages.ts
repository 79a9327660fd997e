import type { TFunction } from "i18next";
import { languageName } from "../../components/languageName";
import { configuredLanguages } from "../../i18n";
import { useContentLanguages } from "../../queries/content-languages";

const INTERFACE = ["de", "en", "fr", "es", "br"];

/**
 * A wiki language's name (issue 31): the interface's languages by their own names as the wiki
 * always named them ("English"); any other content language in the reader's words and its own
 * ("Türkçe – Türkisch").
 */
export function wikiLanguageName(t: TFunction, lang: string, ui: string): string {
  return INTERFACE.includes(lang) ? t(`wiki.languages.${lang}`) : languageName(lang, ui, true);
}

/** The languages a page may be written in: the interface's configured ones, then the installation's content languages. */
export function useWikiLanguages(): string[] {
  const content = useContentLanguages().data?.languages ?? [];
  return [...configuredLanguages, ...content.filter((l) => !(configuredLanguages as readonly string[]).includes(l))];
}
