import { z } from "zod";
import { CONTENT_LANGUAGE_PATTERN, TRANSLATION_STATUSES } from "../rules/translations";
import { BodyId, Id, RequiredText, Str, Text } from "./common";

/*
 * Wiki and quality-management handbook (ARCHITECTURE decision 14). Pages live in a two-level
 * tree, /wiki/{topic}/{page}. Common pages belong to everyone (edited by content managers);
 * a facility's pages (edited by its administrators) are seen only in that facility. Every save
 * is a revision; learners read the released revision; a released page may ask the facility's
 * staff to confirm they have read that version.
 */

/** Slugs of topics and pages: what the URL shows. */
export const WIKI_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const WikiSlug = z.string().regex(WIKI_SLUG, "lower-case letters, digits and '-', at most 63");

/** Limits of the stored Markdown and of the uploaded images. */
export const WIKI_MARKDOWN_MAX = 200_000;
export const WIKI_TITLE_MAX = 150;
export const WIKI_SUMMARY_MAX = 300;
export const WIKI_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Raster images only: SVG can carry script and is refused. */
export const WIKI_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export const WIKI_SEARCH_MAX_QUERY = 200;

/**
 * A wiki page's language (issue 31): an interface language or a content language of the
 * installation (CONTENT_LANGUAGES: tr, pl, ar, …); the server refuses a write in any other.
 */
export const WikiLanguage = z.string().regex(CONTENT_LANGUAGE_PATTERN, "a language code such as de, en, tr");

/** ?facility= : whose facility pages a user without one facility (Super-Admin, superchris) sees or edits. */
export const WikiScopeQuery = z.object({ facility: Id.optional() }).strict();
export type WikiScopeQuery = z.infer<typeof WikiScopeQuery>;

/** How far a person is with a page's read confirmation (the overview's colours). */
export const WikiConfirmationState = z.enum(["confirmed", "outdated", "missing"]);
export type WikiConfirmationState = z.infer<typeof WikiConfirmationState>;
/** green: the released version confirmed; orange: only an earlier version; red: none. */
export const WIKI_CONFIRMATION_COLOURS: Record<WikiConfirmationState, "green" | "orange" | "red"> = {
  confirmed: "green",
  outdated: "orange",
  missing: "red",
};

export const WikiPageStatus = z.enum(["draft", "released"]);
export type WikiPageStatus = z.infer<typeof WikiPageStatus>;

/* ---------- tree ---------- */

export const WikiPageSummary = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    title: z.string(),
    /** null: a common page; else the facility it belongs to. */
    facility_id: z.number().int().nullable(),
    /** draft: never released (only editors see it in the tree). */
    status: WikiPageStatus,
    /** A newer revision than the released one waits (editors only; false for others). */
    has_draft: z.boolean(),
    requires_confirmation: z.boolean(),
    /** The caller's own confirmation of the released version; null where none is asked of them. */
    confirmation: WikiConfirmationState.nullable(),
    updated_at: z.string(),
  })
  .meta({ id: "WikiPageSummary" });
export type WikiPageSummary = z.infer<typeof WikiPageSummary>;

export const WikiTopic = z
  .object({
    id: z.number().int(),
    key: z.string(),
    title: z.string(),
    facility_id: z.number().int().nullable(),
    pages: z.array(WikiPageSummary),
  })
  .meta({ id: "WikiTopic" });
export type WikiTopic = z.infer<typeof WikiTopic>;

export const WikiRecent = z
  .object({
    id: z.number().int(),
    topic: z.string(),
    slug: z.string(),
    title: z.string(),
    /** When the shown version was released (ISO). */
    released_at: z.string(),
  })
  .meta({ id: "WikiRecent" });
export type WikiRecent = z.infer<typeof WikiRecent>;

export const WikiTree = z
  .object({
    /** The facility whose pages are shown beside the common ones (null: common only). */
    facility_id: z.number().int().nullable(),
    topics: z.array(WikiTopic),
    /** Recently released pages, newest first (at most 8). */
    recent: z.array(WikiRecent),
    /** May create and edit common pages (content manager, superchris). */
    can_edit_common: z.boolean(),
    /** May create and edit pages of `facility_id` (its administrators, superchris). */
    can_edit_facility: z.boolean(),
    /** Pages that ask the caller to confirm the released version and are not confirmed yet. */
    to_confirm: z.number().int(),
  })
  .meta({ id: "WikiTree" });
export type WikiTree = z.infer<typeof WikiTree>;

/* ---------- one page ---------- */

export const WikiPageParams = z.object({ topic: WikiSlug, slug: WikiSlug }).strict();
export const WikiPageQuery = z
  .object({
    facility: Id.optional(),
    /** The language to show; a page without it shows German. */
    lang: WikiLanguage.optional(),
    /** Editors: the newest revision instead of the released one. */
    draft: z.enum(["true", "false"]).optional(),
  })
  .strict();
export type WikiPageQuery = z.infer<typeof WikiPageQuery>;

export const WikiRevisionInfo = z
  .object({
    number: z.number().int(),
    /** Who saved it ('' for the content package or a deleted account). */
    author: z.string(),
    at: z.string(),
    summary: z.string(),
  })
  .meta({ id: "WikiRevisionInfo" });
export type WikiRevisionInfo = z.infer<typeof WikiRevisionInfo>;

export const WikiPage = z
  .object({
    id: z.number().int(),
    topic: z.object({ id: z.number().int(), key: z.string(), title: z.string() }),
    slug: z.string(),
    facility_id: z.number().int().nullable(),
    origin: z.enum(["package", "app"]),
    status: WikiPageStatus,
    /** The language shown and the languages the page has (for readers: those they may read). */
    lang: WikiLanguage,
    languages: z.array(WikiLanguage),
    /**
     * Why the language asked for is not the one shown although the page has it (issue 31): its
     * translation is not published yet, or outdated (the German changed since); readers then get
     * the binding German original. Null otherwise.
     */
    fallback: z.enum(["unpublished", "outdated"]).nullable(),
    /** Editors: each translation of the shown revision with its status and whether it is outdated. */
    translations: z.array(
      z.object({ lang: WikiLanguage, status: z.enum(TRANSLATION_STATUSES), outdated: z.boolean() }),
    ),
    title: z.string(),
    /** Sanitised HTML of the shown revision. */
    html: z.string(),
    /** The shown revision. */
    revision: WikiRevisionInfo,
    /** The released revision (null: a draft never released). */
    released: z.object({ number: z.number().int(), at: z.string(), by: z.string() }).nullable(),
    requires_confirmation: z.boolean(),
    /** The caller's own state for the released version; null where none is asked of them. */
    confirmation: WikiConfirmationState.nullable(),
    confirmed_at: z.string().nullable(),
    can_edit: z.boolean(),
    /** Staff of the facility in view: may see who confirmed. */
    can_see_confirmations: z.boolean(),
    /** Editors only: the newest revision's number, the optimistic-concurrency version, and its Markdown. */
    latest: z.number().int(),
    version: z.number().int(),
    markdown: z.string().nullable(),
  })
  .meta({ id: "WikiPage" });
export type WikiPage = z.infer<typeof WikiPage>;

/* ---------- writing ---------- */

export const WikiTopicCreate = z
  .object({
    key: WikiSlug,
    title: RequiredText(WIKI_TITLE_MAX),
    /** A facility topic; left out: a common one. */
    facility: BodyId.optional(),
  })
  .strict();
export type WikiTopicCreate = z.infer<typeof WikiTopicCreate>;

const Markdown = Str(WIKI_MARKDOWN_MAX).transform((s) => s.normalize("NFC"));

export const WikiPageCreate = z
  .object({
    topic: WikiSlug,
    slug: WikiSlug,
    /** A facility page; left out: a common page. */
    facility: BodyId.optional(),
    lang: WikiLanguage.default("de"),
    title: RequiredText(WIKI_TITLE_MAX),
    markdown: Markdown,
    requires_confirmation: z.boolean().default(false),
    summary: Text(WIKI_SUMMARY_MAX).optional(),
  })
  .strict();
export type WikiPageCreate = z.infer<typeof WikiPageCreate>;

export const WikiPageSave = z
  .object({
    /** The version the editor started from: a different current version is 409 (nothing is lost). */
    version: z.number().int().nonnegative(),
    lang: WikiLanguage.default("de"),
    title: RequiredText(WIKI_TITLE_MAX),
    markdown: Markdown,
    /**
     * A translation's status (issue 31; not for German, the original): readers see a translation
     * once it is published and released, for as long as the German does not change. Left out: the
     * status it had, else draft.
     */
    status: z.enum(TRANSLATION_STATUSES).optional(),
    requires_confirmation: z.boolean().optional(),
    summary: Text(WIKI_SUMMARY_MAX).optional(),
  })
  .strict();
export type WikiPageSave = z.infer<typeof WikiPageSave>;

/** Releasing: the newest revision (or the one named) becomes what learners read. */
export const WikiRelease = z
  .object({ version: z.number().int().nonnegative(), revision: z.number().int().positive().optional() })
  .strict();
export type WikiRelease = z.infer<typeof WikiRelease>;

export const WikiRestore = z
  .object({ version: z.number().int().nonnegative(), revision: z.number().int().positive() })
  .strict();
export type WikiRestore = z.infer<typeof WikiRestore>;

export const WikiRevisionParams = z.object({ id: Id, number: Id }).strict();

export const WikiRevisionList = z
  .array(WikiRevisionInfo.extend({ released: z.boolean(), languages: z.array(WikiLanguage) }))
  .meta({ id: "WikiRevisionList" });
export type WikiRevisionList = z.infer<typeof WikiRevisionList>;

export const WikiRevision = z
  .object({
    number: z.number().int(),
    author: z.string(),
    at: z.string(),
    summary: z.string(),
    lang: WikiLanguage,
    title: z.string(),
    markdown: z.string(),
    html: z.string(),
  })
  .meta({ id: "WikiRevision" });
export type WikiRevision = z.infer<typeof WikiRevision>;

export const WikiDiffQuery = z.object({ from: Id, to: Id, lang: WikiLanguage.optional() }).strict();
export type WikiDiffQuery = z.infer<typeof WikiDiffQuery>;

/** A readable diff: lines of Markdown, changed lines with their changed words marked. */
export const WikiDiffLine = z.object({
  type: z.enum(["same", "added", "removed", "changed"]),
  /** same/added/removed: the line; changed: see parts. */
  text: z.string(),
  parts: z.array(z.object({ type: z.enum(["same", "added", "removed"]), text: z.string() })).optional(),
});
export const WikiDiff = z
  .object({
    from: z.number().int(),
    to: z.number().int(),
    lang: WikiLanguage,
    title: z.object({ from: z.string(), to: z.string() }),
    lines: z.array(WikiDiffLine),
    added: z.number().int(),
    removed: z.number().int(),
  })
  .meta({ id: "WikiDiff" });
export type WikiDiff = z.infer<typeof WikiDiff>;

/* ---------- read confirmations ---------- */

/**
 * 'I have read and understood this version': the released revision, and the language it was read
 * in (left out: the one the page shows the caller). A translation read counts; German is binding.
 */
export const WikiConfirm = z.object({ revision: z.number().int().positive(), lang: WikiLanguage.optional() }).strict();
export type WikiConfirm = z.infer<typeof WikiConfirm>;

export const WikiConfirmationRow = z.object({
  user_id: z.number().int(),
  name: z.string(),
  surname: z.string(),
  login: z.string(),
  state: WikiConfirmationState,
  /** The revision they confirmed last, when, and the language they read it in. */
  revision: z.number().int().nullable(),
  confirmed_at: z.string().nullable(),
  lang: WikiLanguage.nullable(),
});
export type WikiConfirmationRow = z.infer<typeof WikiConfirmationRow>;

export const WikiConfirmations = z
  .object({
    page_id: z.number().int(),
    title: z.string(),
    facility: z.object({ id: z.number().int(), name: z.string() }),
    /** The released revision asked for (null: not released yet). */
    revision: z.number().int().nullable(),
    released_at: z.string().nullable(),
    confirmed: z.number().int(),
    total: z.number().int(),
    rows: z.array(WikiConfirmationRow),
  })
  .meta({ id: "WikiConfirmations" });
export type WikiConfirmations = z.infer<typeof WikiConfirmations>;

export const WikiRemindResult = z.object({ reminded: z.number().int() }).meta({ id: "WikiRemindResult" });

/* ---------- search and images ---------- */

export const WikiSearchQuery = z
  .object({
    q: z
      .string()
      .max(WIKI_SEARCH_MAX_QUERY * 4)
      .transform((s) => s.normalize("NFC").trim())
      .pipe(z.string().min(2).max(WIKI_SEARCH_MAX_QUERY)),
    facility: Id.optional(),
    lang: WikiLanguage.optional(),
  })
  .strict();
export type WikiSearchQuery = z.infer<typeof WikiSearchQuery>;

export const WikiSearchHit = z.object({
  id: z.number().int(),
  topic: z.string(),
  topic_title: z.string(),
  slug: z.string(),
  title: z.string(),
  /** Plain text with the matches between the markers WIKI_MARK_START and WIKI_MARK_END. */
  snippet: z.string(),
  rank: z.number(),
});
export type WikiSearchHit = z.infer<typeof WikiSearchHit>;
export const WikiSearchResult = z
  .object({ hits: z.array(WikiSearchHit), took_ms: z.number() })
  .meta({ id: "WikiSearchResult" });
export type WikiSearchResult = z.infer<typeof WikiSearchResult>;
/** Markers around a match in a snippet (private-use characters, never in page text). */
export const WIKI_MARK_START = "\uE000";
export const WIKI_MARK_END = "\uE001";

export const WikiImageQuery = z.object({ facility: Id.optional() }).strict();
export const WikiImageResult = z
  .object({
    id: z.number().int(),
    /** The path to put into Markdown: `/api/static/wiki/<id>`. */
    src: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: "WikiImageResult" });
export type WikiImageResult = z.infer<typeof WikiImageResult>;
