import { ErrorCode, isPageLanguage } from "@carecampus/contract";
import { AppError } from "../errors";

/**
 * 400 unless pages (wiki, tutorial) may come in `lang` here (issue 31): an interface language or
 * one of the installation's content languages (CONTENT_LANGUAGES).
 */
export function assertPageLanguage(lang: string, contentLanguages: readonly string[]): void {
  if (isPageLanguage(lang, contentLanguages)) return;
  throw new AppError(
    ErrorCode.validation,
    `lang: "${lang}" is neither a language of the interface nor a content language of this installation (CONTENT_LANGUAGES: ${contentLanguages.join(", ") || "none"})`,
  );
}
