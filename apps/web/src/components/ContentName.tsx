import { contentLanguageTag, isRightToLeft } from "@carecampus/contract";
import { useTranslation } from "react-i18next";

/**
 * A topic's, training's or questionnaire's name in the language it comes in (issue 31): marked
 * with that language (and its direction) where it is not the interface's, so that a screen reader
 * reads a Turkish name in Turkish inside a German page.
 */
export function ContentName({ name, lang }: { name: string; lang: string }) {
  const { i18n } = useTranslation();
  if (lang === i18n.language) return name;
  return (
    <span lang={contentLanguageTag(lang)} dir={isRightToLeft(lang) ? "rtl" : undefined}>
      {name}
    </span>
  );
}
