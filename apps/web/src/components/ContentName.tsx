import { contentLanguageTag, isRightToLeft } from "@carecampus/contract";
import { useTranslation } from "react-i18next";
import { useRequiredSession } from "../session/store";

/** The attributes that mark content in a content language (issue 31): its BCP 47 tag, and its direction where right to left. */
export function inLanguage(code: string): { lang: string; dir?: "rtl" } {
  return isRightToLeft(code) ? { lang: contentLanguageTag(code), dir: "rtl" } : { lang: contentLanguageTag(code) };
}

/** The language the user reads content in (wiki, tutorial): the one they take trainings in, else the interface's. */
export function useReadingLanguage(): string {
  const { i18n } = useTranslation();
  return useRequiredSession().user.content_language ?? i18n.language;
}

/**
 * A topic's, training's or questionnaire's name in the language it comes in (issue 31): marked
 * with that language (and its direction) where it is not the interface's, so that a screen reader
 * reads a Turkish name in Turkish inside a German page.
 */
export function ContentName({ name, lang }: { name: string; lang: string }) {
  const { i18n } = useTranslation();
  if (lang === i18n.language) return name;
  return <span {...inLanguage(lang)}>{name}</span>;
}
