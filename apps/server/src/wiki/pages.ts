import {
  DEFAULT_LANGUAGE,
  ErrorCode,
  LANGUAGES,
  type WikiConfirmationState,
  type WikiPage,
  type WikiRevisionInfo,
} from "@carecampus/contract";
import { and, eq, sql } from "drizzle-orm";
import {
  type Actor,
  assertMay,
  assertMayEditContent,
  decide,
  mayEditContent,
  notFound,
  ownedBy,
} from "../access/policy";
import type { Db, Tx } from "../db/client";
import {
  facilities,
  preferences,
  type WikiText,
  wikiConfirmations,
  wikiPages,
  wikiRevisions,
  wikiTopics,
} from "../db/schema";
import { AppError } from "../errors";
import { renderWikiMarkdown } from "./render";
import { isOutdated, readable, translationStatus } from "./translations";

/*
 * What every wiki call shares: whose pages a caller sees (the facility in view), who may edit
 * a page, which text of a revision a reader gets, and how a page answers.
 */

export type PageRow = typeof wikiPages.$inferSelect;
export type TopicRow = typeof wikiTopics.$inferSelect;

export const PAGE_NOT_FOUND = () => new AppError(ErrorCode.notFound, "Wiki page not found");
export const STALE = () =>
  new AppError(
    ErrorCode.conflict,
    "The page was changed by someone else since you opened it: nothing was saved. Reload it, take over your changes and save again.",
  );

/**
 * The facility whose pages the caller sees beside the common ones: the one asked for (its
 * users and Super-Admins; another is 1003), else their own, else none (common pages only).
 */
export async function facilityInView(db: Db | Tx, actor: Actor, asked: number | undefined): Promise<number | null> {
  if (asked === undefined || asked === actor.facilityId) return actor.facilityId;
  assertMay(actor, "wiki.readFacility", { facilityId: asked });
  const [row] = await db.select({ id: facilities.id }).from(facilities).where(eq(facilities.id, asked));
  if (!row) throw notFound("wiki.readFacility");
  return asked;
}

/** May the actor change this page (or add one to this facility, null: a common one)? */
export function mayEdit(actor: Actor, facilityId: number | null): boolean {
  return mayEditContent(actor, "wikiPage", facilityId);
}

/** Throws the refusal of an edit: a common page 403 for non-editors; a facility's page 403 by role, 404 outside scope. */
export function assertMayEdit(actor: Actor, facilityId: number | null): void {
  assertMayEditContent(actor, "wikiPage", facilityId);
}

/** Is a confirmation of this page asked of the actor? Of every user of a facility the page belongs to. */
export function confirmationAsked(
  actor: Actor,
  page: Pick<PageRow, "facilityId" | "requiresConfirmation" | "releasedRevision">,
) {
  return (
    page.requiresConfirmation &&
    page.releasedRevision !== null &&
    actor.facilityId !== null &&
    (page.facilityId === null || page.facilityId === actor.facilityId)
  );
}

/** Staff of the facility in view see who confirmed (a common page: per facility; no facility in view: nobody). */
export function maySeeConfirmations(actor: Actor, facilityId: number | null): boolean {
  return facilityId !== null && decide(actor, "wiki.confirmations", { facilityId }) === "allow";
}

/** A revision's text in the language asked for, else German, else the first it has. */
export function textIn(content: Record<string, WikiText>, lang: string): { lang: string; text: WikiText } {
  for (const l of [lang, DEFAULT_LANGUAGE, ...languagesOf(content)]) {
    const text = content[l];
    if (text) return { lang: l, text };
  }
  return { lang: DEFAULT_LANGUAGE, text: { title: "", markdown: "" } };
}

/** The languages a revision has: German first, then the interface's languages, then the other content languages. */
export function languagesOf(content: Record<string, WikiText>): string[] {
  const rank = (l: string) => {
    const i = (LANGUAGES as readonly string[]).indexOf(l);
    return i < 0 ? LANGUAGES.length : i;
  };
  return Object.keys(content)
    .filter((l) => content[l] !== undefined)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * The language a reader reads the wiki in when the call names none (issue 31): the one they take
 * trainings in (their preference), else their interface's.
 */
export async function readingLanguage(db: Db | Tx, actor: Actor): Promise<string> {
  const [row] = await db
    .select({ lang: preferences.contentLanguage })
    .from(preferences)
    .where(eq(preferences.userId, actor.id));
  return row?.lang ?? actor.language;
}

/**
 * A revision's text as a reader gets it (issue 31): the language asked for when its translation is
 * published and current, else German (else the first there is); `fallback` says why a language the
 * revision has was not shown.
 */
export function readerTextIn(
  content: Record<string, WikiText>,
  lang: string,
): { lang: string; text: WikiText; fallback: "unpublished" | "outdated" | null } {
  if (readable(content, lang)) return { lang, text: content[lang] as WikiText, fallback: null };
  const shown = textIn(content, DEFAULT_LANGUAGE);
  const fallback = !content[lang] ? null : isOutdated(content, lang) ? "outdated" : "unpublished";
  return { ...shown, fallback };
}

/** The languages a reader may read in a revision (German first). */
export function readableLanguagesOf(content: Record<string, WikiText>): string[] {
  return languagesOf(content).filter((l) => readable(content, l));
}

/** Each translation of a revision with its status and whether it is outdated (for editors). */
export function translationsOf(content: Record<string, WikiText>): WikiPage["translations"] {
  return languagesOf(content)
    .filter((l) => l !== DEFAULT_LANGUAGE)
    .map((l) => ({ lang: l, status: translationStatus(content, l) ?? "published", outdated: isOutdated(content, l) }));
}

/**
 * A live page by its place, as the caller may see it: another facility's page, a retired one
 * and (for non-editors) one never released are all 404 alike.
 */
export async function findVisiblePage(
  db: Db | Tx,
  actor: Actor,
  place: { topic: string; slug: string },
  inView: number | null,
): Promise<{ page: PageRow; topic: TopicRow }> {
  const rows = await db
    .select({ page: wikiPages, topic: wikiTopics })
    .from(wikiPages)
    .innerJoin(wikiTopics, eq(wikiTopics.id, wikiPages.topicId))
    .where(
      and(
        eq(wikiTopics.key, place.topic),
        eq(wikiPages.slug, place.slug),
        eq(wikiPages.retired, false),
        eq(wikiTopics.retired, false),
        sql`(${wikiTopics.facilityId} is null or ${wikiTopics.facilityId} = ${inView ?? 0})`,
        sql`(${wikiPages.facilityId} is null or ${wikiPages.facilityId} = ${inView ?? 0})`,
      ),
    );
  // A facility's own page of that name comes before a common one.
  const found = rows.sort((a, b) => (b.page.facilityId ?? 0) - (a.page.facilityId ?? 0))[0];
  if (!found) throw PAGE_NOT_FOUND();
  if (found.page.releasedRevision === null && !mayEdit(actor, found.page.facilityId)) throw PAGE_NOT_FOUND();
  return found;
}

/** A live page by id within the actor's facilities (another facility's is missing); locked for `lock`. */
async function livePage(db: Db | Tx, actor: Actor, id: number, lock = false): Promise<PageRow> {
  const query = db
    .select()
    .from(wikiPages)
    .where(and(eq(wikiPages.id, id), eq(wikiPages.retired, false)));
  const [page] = lock ? await query.for("update") : await query;
  if (!page || decide(actor, "wiki.page", ownedBy(page.facilityId)) !== "allow") throw PAGE_NOT_FOUND();
  return page;
}

/**
 * A live page by id for a change: the caller must be able to see it (else 404) and edit it
 * (else 403). Locked for the transaction when `lock` is set.
 */
export async function pageForEdit(tx: Db | Tx, actor: Actor, id: number, lock = false): Promise<PageRow> {
  const page = await livePage(tx, actor, id, lock);
  assertMayEdit(actor, page.facilityId);
  return page;
}

/** A live page by id that the caller may read (its facility's or common, released or theirs to edit). */
export async function pageForRead(db: Db | Tx, actor: Actor, id: number): Promise<PageRow> {
  const page = await livePage(db, actor, id);
  if (page.releasedRevision === null && !mayEdit(actor, page.facilityId)) throw PAGE_NOT_FOUND();
  return page;
}

export async function loadRevision(db: Db | Tx, pageId: number, number: number) {
  const [row] = await db
    .select()
    .from(wikiRevisions)
    .where(and(eq(wikiRevisions.pageId, pageId), eq(wikiRevisions.number, number)));
  return row;
}

export function revisionInfo(row: typeof wikiRevisions.$inferSelect): WikiRevisionInfo {
  return { number: row.number, author: row.authorName, at: row.createdAt.toISOString(), summary: row.summary };
}

/** The caller's state for a page's released revision, with when they confirmed it. */
export async function ownConfirmation(
  db: Db | Tx,
  actor: Actor,
  page: PageRow,
): Promise<{ state: WikiConfirmationState | null; at: string | null }> {
  if (!confirmationAsked(actor, page)) return { state: null, at: null };
  const rows = await db
    .select({ revision: wikiConfirmations.revision, at: wikiConfirmations.confirmedAt })
    .from(wikiConfirmations)
    .where(and(eq(wikiConfirmations.pageId, page.id), eq(wikiConfirmations.userId, actor.id)));
  const current = rows.find((r) => r.revision === page.releasedRevision);
  if (current) return { state: "confirmed", at: current.at.toISOString() };
  return { state: rows.length > 0 ? "outdated" : "missing", at: null };
}

/**
 * A page as the API answers it: the released revision, or (editors asking for the draft, or a
 * page never released) the newest; in the language asked for or German.
 */
export async function pageView(
  db: Db | Tx,
  actor: Actor,
  page: PageRow,
  options: { lang?: string; draft?: boolean; inView?: number | null },
): Promise<WikiPage> {
  const [topic] = await db.select().from(wikiTopics).where(eq(wikiTopics.id, page.topicId));
  if (!topic) throw PAGE_NOT_FOUND();
  const canEdit = mayEdit(actor, page.facilityId);
  const number =
    canEdit && (options.draft || page.releasedRevision === null) ? page.latestRevision : page.releasedRevision;
  if (number === null) throw PAGE_NOT_FOUND();
  const revision = await loadRevision(db, page.id, number);
  if (!revision) throw PAGE_NOT_FOUND();
  // Editing (the newest revision asked for): the language as written; reading: as readers get it.
  const editing = canEdit && number === page.latestRevision && (options.draft || page.releasedRevision === null);
  const asked = options.lang ?? actor.language;
  const shown = editing
    ? { ...textIn(revision.content, asked), fallback: null }
    : readerTextIn(revision.content, asked);
  const own = await ownConfirmation(db, actor, page);
  return {
    id: page.id,
    topic: { id: topic.id, key: topic.key, title: topic.title },
    slug: page.slug,
    facility_id: page.facilityId,
    origin: page.origin === "package" ? "package" : "app",
    status: page.releasedRevision === null ? "draft" : "released",
    lang: shown.lang,
    languages: editing ? languagesOf(revision.content) : readableLanguagesOf(revision.content),
    fallback: shown.fallback,
    translations: canEdit ? translationsOf(revision.content) : [],
    title: shown.text.title,
    html: renderWikiMarkdown(shown.text.markdown),
    revision: revisionInfo(revision),
    released:
      page.releasedRevision === null || page.releasedAt === null
        ? null
        : { number: page.releasedRevision, at: page.releasedAt.toISOString(), by: page.releasedBy ?? "" },
    requires_confirmation: page.requiresConfirmation,
    confirmation: own.state,
    confirmed_at: own.at,
    can_edit: canEdit,
    can_see_confirmations: maySeeConfirmations(actor, page.facilityId ?? options.inView ?? actor.facilityId),
    latest: canEdit ? page.latestRevision : (page.releasedRevision ?? 0),
    version: canEdit ? page.version : 0,
    markdown: canEdit ? shown.text.markdown : null,
  };
}
