import { SOURCE_LANGUAGE, TRANSLATION_STATUSES, type TranslationStatus } from "@carecampus/contract";
import { type SQL, sql } from "drizzle-orm";
import type { WikiText } from "../db/schema";

/*
 * A wiki page's translations (issue 31). A revision holds each language's text; German is the
 * original and binding. A translation carries its status (draft, machine, reviewed, published) and
 * which German it translates: `source`, the revision whose German text it was written for, while
 * the German carries `since`, the revision in which its text last changed. A reader is shown a
 * translation only when it is published and current (source ≥ since); otherwise the German
 * original, with a note why (README: outdated translations fall back to German). Texts saved before
 * this was recorded, and package pages, have neither mark: published and current.
 */

export type WikiContent = Record<string, WikiText>;

/** A language's status in a revision (German: null, it is the original). */
export function translationStatus(content: WikiContent, lang: string): TranslationStatus | null {
  const text = content[lang];
  if (!text || lang === SOURCE_LANGUAGE) return null;
  return (TRANSLATION_STATUSES as readonly string[]).includes(text.status ?? "")
    ? (text.status as TranslationStatus)
    : "published";
}

/** The translation was written for an earlier German text than the revision holds. */
export function isOutdated(content: WikiContent, lang: string): boolean {
  const text = content[lang];
  if (!text || lang === SOURCE_LANGUAGE || text.source === undefined) return false;
  return text.source < (content[SOURCE_LANGUAGE]?.since ?? 0);
}

/** May a reader be shown this language of the revision? German always; a translation published and current (or no German to bind it). */
export function readable(content: WikiContent, lang: string): boolean {
  if (!content[lang]) return false;
  if (lang === SOURCE_LANGUAGE || !content[SOURCE_LANGUAGE]) return true;
  return translationStatus(content, lang) === "published" && !isOutdated(content, lang);
}

/** The same rule in SQL over a revision's content column, for a language given as a parameter. */
export function readableSql(content: SQL, lang: string): SQL {
  return sql`(${content} ? ${lang} and (${lang} = ${SOURCE_LANGUAGE} or not (${content} ? ${SOURCE_LANGUAGE}) or (
    coalesce(${content}->${lang}->>'status', 'published') = 'published'
    and coalesce((${content}->${lang}->>'source')::int, 2147483647) >= coalesce((${content}->${SOURCE_LANGUAGE}->>'since')::int, 0))))`;
}

/** The title a reader sees in `lang`: the readable translation's, else the German (else the first there is). */
export function readableTitleSql(content: SQL, lang: string): SQL {
  return sql`case when ${readableSql(content, lang)} then ${content}->${lang}->>'title' else coalesce(${content}->${SOURCE_LANGUAGE}->>'title', (select v->>'title' from jsonb_each(${content}) as e(k, v) limit 1)) end`;
}

/**
 * The content after a save of `lang` as revision `revision`: German that changed marks itself
 * (`since`), so the translations written for the German before are outdated; a translation records
 * its status and the German it translates.
 */
export function savedContent(
  before: WikiContent,
  lang: string,
  text: { title: string; markdown: string },
  revision: number,
  status: TranslationStatus,
): WikiContent {
  const old = before[lang];
  if (lang !== SOURCE_LANGUAGE) {
    return { ...before, [lang]: { ...text, status, source: before[SOURCE_LANGUAGE]?.since ?? 0 } };
  }
  const changed = !old || old.title !== text.title || old.markdown !== text.markdown;
  const since = changed ? revision : (old?.since ?? 0);
  const out: WikiContent = { ...before, [lang]: { ...text, since } };
  if (changed) {
    // Translations from before the German was marked: they translate the German before this change.
    for (const [l, t] of Object.entries(out)) {
      if (l !== SOURCE_LANGUAGE && t.source === undefined) out[l] = { ...t, source: old?.since ?? 0 };
    }
  }
  return out;
}
