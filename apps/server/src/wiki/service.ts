import { Readable } from "node:stream";
import {
  ErrorCode,
  personName,
  SOURCE_LANGUAGE,
  WIKI_IMAGE_MAX_BYTES,
  type WikiPage,
  type WikiPageCreate,
  type WikiPageQuery,
  type WikiPageSave,
  type WikiPageSummary,
  type WikiRelease,
  type WikiRestore,
  type WikiRevision,
  type WikiRevisionList,
  type WikiTopic,
  type WikiTopicCreate,
  type WikiTree,
} from "@carecampus/contract";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Actor } from "../access/policy";
import { recordAudit } from "../audit/record";
import type { Db, Tx } from "../db/client";
import { type WikiText, wikiPages, wikiRevisions, wikiSearch, wikiTopics } from "../db/schema";
import { runTransaction } from "../db/transaction";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { tooLarge } from "../http/body-limit";
import { storeUpload } from "../storage/media";
import type { UploadQuota } from "../storage/quota";
import { peekBody } from "../storage/upload";
import { IMAGE_HEAD_BYTES, type ImageInfo, imageInfo, wikiImageName } from "./images";
import {
  assertMayEdit,
  confirmationAsked,
  facilityInView,
  findVisiblePage,
  languagesOf,
  loadRevision,
  mayEdit,
  PAGE_NOT_FOUND,
  type PageRow,
  pageForEdit,
  pageView,
  readableLanguagesOf,
  readingLanguage,
  revisionInfo,
  STALE,
  textIn,
} from "./pages";
import { renderWikiMarkdown, wikiPlainText } from "./render";
import { readableTitleSql, savedContent, translationStatus } from "./translations";

/** Recently released pages on /wiki. */
const RECENT = 8;

/**
 * The text-search configuration of each language PostgreSQL stems (`br` is Brazilian Portuguese);
 * any other content language is searched word by word ('simple').
 */
const SEARCH_CONFIGS: Record<string, string> = {
  de: "german",
  en: "english",
  fr: "french",
  es: "spanish",
  br: "portuguese",
  pt: "portuguese",
  tr: "turkish",
  it: "italian",
  nl: "dutch",
  ru: "russian",
  ro: "romanian",
  ar: "arabic",
  el: "greek",
  hu: "hungarian",
  sv: "swedish",
  da: "danish",
  fi: "finnish",
  no: "norwegian",
  nb: "norwegian",
  lt: "lithuanian",
  sr: "serbian",
  id: "indonesian",
  ga: "irish",
  hy: "armenian",
  eu: "basque",
  ca: "catalan",
  hi: "hindi",
  ne: "nepali",
  ta: "tamil",
  yi: "yiddish",
};

export function searchConfig(lang: string): string {
  return SEARCH_CONFIGS[lang] ?? "simple";
}

/** The page's search rows: its released revision in every language it has; none once retired or unreleased. */
export async function reindexPage(tx: Db | Tx, pageId: number): Promise<void> {
  await tx.delete(wikiSearch).where(eq(wikiSearch.pageId, pageId));
  const [page] = await tx.select().from(wikiPages).where(eq(wikiPages.id, pageId));
  if (!page || page.retired || page.releasedRevision === null) return;
  const revision = await loadRevision(tx, pageId, page.releasedRevision);
  if (!revision) return;
  // The languages readers may read: a draft or outdated translation is not found by search.
  for (const lang of readableLanguagesOf(revision.content)) {
    const text = revision.content[lang];
    if (!text) continue;
    const config = searchConfig(lang);
    const body = wikiPlainText(text.markdown);
    await tx.insert(wikiSearch).values({
      pageId,
      lang,
      config,
      title: text.title,
      body,
      document: sql`setweight(to_tsvector(${config}::regconfig, ${text.title}), 'A') || setweight(to_tsvector(${config}::regconfig, ${body}), 'B')`,
    });
  }
}

/* ---------- the tree ---------- */

/** GET /wiki. */
export async function wikiTree(db: Db, actor: Actor, asked: number | undefined): Promise<WikiTree> {
  const inView = await facilityInView(db, actor, asked);
  const topics = await db
    .select()
    .from(wikiTopics)
    .where(
      and(
        eq(wikiTopics.retired, false),
        sql`(${wikiTopics.facilityId} is null or ${wikiTopics.facilityId} = ${inView ?? 0})`,
      ),
    )
    .orderBy(sql`${wikiTopics.facilityId} nulls first`, asc(wikiTopics.position), asc(wikiTopics.title));
  const lang = await readingLanguage(db, actor);
  const pages = await db
    .select({
      page: wikiPages,
      releasedTitle: sql<
        string | null
      >`(select ${readableTitleSql(sql`r.content`, lang)} from wiki_revisions r where r.page_id = ${wikiPages.id} and r.number = ${wikiPages.releasedRevision})`,
      latestTitle: sql<
        string | null
      >`(select coalesce(r.content->${lang}->>'title', r.content->'de'->>'title') from wiki_revisions r where r.page_id = ${wikiPages.id} and r.number = ${wikiPages.latestRevision})`,
      confirmed: sql<
        number | null
      >`(select max(c.revision) from wiki_confirmations c where c.page_id = ${wikiPages.id} and c.user_id = ${actor.id})`,
    })
    .from(wikiPages)
    .where(
      and(
        eq(wikiPages.retired, false),
        sql`(${wikiPages.facilityId} is null or ${wikiPages.facilityId} = ${inView ?? 0})`,
      ),
    )
    .orderBy(asc(wikiPages.position), asc(wikiPages.slug));
  const byTopic = new Map<number, WikiPageSummary[]>();
  let toConfirm = 0;
  for (const { page, releasedTitle, latestTitle, confirmed } of pages) {
    const editor = mayEdit(actor, page.facilityId);
    if (page.releasedRevision === null && !editor) continue;
    let confirmation: WikiPageSummary["confirmation"] = null;
    if (confirmationAsked(actor, page)) {
      confirmation = confirmed === page.releasedRevision ? "confirmed" : confirmed !== null ? "outdated" : "missing";
      if (confirmation !== "confirmed") toConfirm++;
    }
    const list = byTopic.get(page.topicId) ?? [];
    list.push({
      id: page.id,
      slug: page.slug,
      title: (editor ? latestTitle : releasedTitle) ?? releasedTitle ?? page.slug,
      facility_id: page.facilityId,
      status: page.releasedRevision === null ? "draft" : "released",
      has_draft: editor && page.releasedRevision !== null && page.latestRevision > page.releasedRevision,
      requires_confirmation: page.requiresConfirmation,
      confirmation,
      updated_at: page.updatedAt.toISOString(),
    });
    byTopic.set(page.topicId, list);
  }
  const canEditCommon = mayEdit(actor, null);
  const canEditFacility = inView !== null && mayEdit(actor, inView);
  const out: WikiTopic[] = topics
    .map((t) => ({ id: t.id, key: t.key, title: t.title, facility_id: t.facilityId, pages: byTopic.get(t.id) ?? [] }))
    // Empty topics only for who could fill them.
    .filter((t) => t.pages.length > 0 || mayEdit(actor, t.facility_id));

  const recent = await db
    .select({
      id: wikiPages.id,
      topic: wikiTopics.key,
      slug: wikiPages.slug,
      releasedAt: wikiPages.releasedAt,
      title: sql<string>`(select ${readableTitleSql(sql`r.content`, lang)} from wiki_revisions r where r.page_id = ${wikiPages.id} and r.number = ${wikiPages.releasedRevision})`,
    })
    .from(wikiPages)
    .innerJoin(wikiTopics, eq(wikiTopics.id, wikiPages.topicId))
    .where(
      and(
        eq(wikiPages.retired, false),
        eq(wikiTopics.retired, false),
        sql`${wikiPages.releasedAt} is not null`,
        sql`(${wikiPages.facilityId} is null or ${wikiPages.facilityId} = ${inView ?? 0})`,
        sql`(${wikiTopics.facilityId} is null or ${wikiTopics.facilityId} = ${inView ?? 0})`,
      ),
    )
    .orderBy(desc(wikiPages.releasedAt), desc(wikiPages.id))
    .limit(RECENT);

  return {
    facility_id: inView,
    topics: out,
    recent: recent.map((r) => ({
      id: r.id,
      topic: r.topic,
      slug: r.slug,
      title: r.title,
      released_at: (r.releasedAt as Date).toISOString(),
    })),
    can_edit_common: canEditCommon,
    can_edit_facility: canEditFacility,
    to_confirm: toConfirm,
  };
}

/** POST /wiki/topics. */
export async function createTopic(deps: DbClock, actor: Actor, body: WikiTopicCreate): Promise<WikiTopic> {
  const { db } = deps;
  const facilityId = body.facility === undefined ? null : await facilityInView(db, actor, body.facility);
  assertMayEdit(actor, facilityId);
  return runTransaction(db, async (tx) => {
    // A facility's topic may not shadow a common one, nor a common one a facility's.
    const [clash] = await tx
      .select({ id: wikiTopics.id })
      .from(wikiTopics)
      .where(
        and(
          eq(wikiTopics.key, body.key),
          facilityId === null
            ? undefined
            : sql`(${wikiTopics.facilityId} is null or ${wikiTopics.facilityId} = ${facilityId})`,
        ),
      );
    if (clash) throw new AppError(ErrorCode.conflict, "A topic with this key exists");
    const [{ max } = { max: 0 }] = await tx
      .select({ max: sql<number>`coalesce(max(${wikiTopics.position}), 0)::int` })
      .from(wikiTopics);
    const [row] = await tx
      .insert(wikiTopics)
      .values({ key: body.key, title: body.title, facilityId, origin: "app", position: max + 1 })
      .returning();
    if (!row) throw new AppError(ErrorCode.conflict, "A topic with this key exists");
    await recordAudit(tx, { kind: "wiki.topic_created", actor, facilityId, data: { topic: row.key } }, deps.now());
    return { id: row.id, key: row.key, title: row.title, facility_id: row.facilityId, pages: [] };
  });
}

/* ---------- pages ---------- */

/** GET /wiki/page/{topic}/{slug}. */
export async function getPage(
  db: Db,
  actor: Actor,
  place: { topic: string; slug: string },
  query: WikiPageQuery,
): Promise<WikiPage> {
  const inView = await facilityInView(db, actor, query.facility);
  const { page } = await findVisiblePage(db, actor, place, inView);
  const lang = query.lang ?? (await readingLanguage(db, actor));
  return pageView(db, actor, page, { lang, draft: query.draft === "true", inView });
}

/** POST /wiki/pages: a draft, revision 1. */
export async function createPage(deps: DbClock, actor: Actor, body: WikiPageCreate): Promise<WikiPage> {
  const { db } = deps;
  const facilityId = body.facility === undefined ? null : await facilityInView(db, actor, body.facility);
  assertMayEdit(actor, facilityId);
  const page = await runTransaction(db, async (tx) => {
    const [topic] = await tx
      .select()
      .from(wikiTopics)
      .where(
        and(
          eq(wikiTopics.key, body.topic),
          eq(wikiTopics.retired, false),
          sql`(${wikiTopics.facilityId} is null or ${wikiTopics.facilityId} = ${facilityId ?? 0})`,
        ),
      );
    if (!topic) throw new AppError(ErrorCode.notFound, "Wiki topic not found");
    // A common page cannot go into a facility's topic.
    if (topic.facilityId !== null && facilityId === null)
      throw new AppError(ErrorCode.notFound, "Wiki topic not found");
    // One page of a name per reader: a facility's page may not hide a common one, nor the reverse.
    const [clash] = await tx
      .select({ id: wikiPages.id })
      .from(wikiPages)
      .where(
        and(
          eq(wikiPages.topicId, topic.id),
          eq(wikiPages.slug, body.slug),
          facilityId === null
            ? undefined
            : sql`(${wikiPages.facilityId} is null or ${wikiPages.facilityId} = ${facilityId})`,
        ),
      );
    if (clash) throw new AppError(ErrorCode.conflict, "The topic already has a page with this name");
    const now = deps.now();
    const [row] = await tx
      .insert(wikiPages)
      .values({
        topicId: topic.id,
        facilityId,
        slug: body.slug,
        origin: "app",
        requiresConfirmation: body.requires_confirmation,
        latestRevision: 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw PAGE_NOT_FOUND();
    await tx.insert(wikiRevisions).values({
      pageId: row.id,
      number: 1,
      content: { [body.lang]: { title: body.title, markdown: body.markdown } },
      summary: body.summary ?? "",
      authorId: actor.id,
      authorName: personName(actor),
      createdAt: now,
    });
    await recordAudit(
      tx,
      {
        kind: "wiki.page_saved",
        actor,
        facilityId,
        data: { page: row.id, topic: topic.key, slug: body.slug, revision: 1, lang: body.lang, created: true },
      },
      now,
    );
    return row;
  });
  return pageView(db, actor, page, { lang: body.lang, draft: true });
}

/** Appends a revision with `content` under the page's lock; the version must still be the one the editor had. */
async function appendRevision(
  tx: Tx,
  deps: DbClock,
  actor: Actor,
  page: PageRow,
  revision: {
    version: number;
    content: Record<string, WikiText>;
    summary: string;
    changes?: Partial<Pick<PageRow, "requiresConfirmation">>;
    /** What the audit entry adds to the page and revision (the language saved, the revision restored). */
    audited: Record<string, unknown>;
  },
): Promise<PageRow> {
  const { version, content, summary, changes = {}, audited } = revision;
  if (page.version !== version) throw STALE();
  const now = deps.now();
  const number = page.latestRevision + 1;
  await tx.insert(wikiRevisions).values({
    pageId: page.id,
    number,
    content,
    summary,
    authorId: actor.id,
    authorName: personName(actor),
    createdAt: now,
  });
  const [row] = await tx
    .update(wikiPages)
    .set({ ...changes, latestRevision: number, version: page.version + 1, updatedAt: now })
    .where(eq(wikiPages.id, page.id))
    .returning();
  if (!row) throw PAGE_NOT_FOUND();
  const confirmation =
    changes.requiresConfirmation !== undefined && changes.requiresConfirmation !== page.requiresConfirmation
      ? {
          before: { requires_confirmation: page.requiresConfirmation },
          after: { requires_confirmation: changes.requiresConfirmation },
        }
      : {};
  await recordAudit(
    tx,
    {
      kind: "wiki.page_saved",
      actor,
      facilityId: page.facilityId,
      data: { page: page.id, slug: page.slug, revision: number, ...audited, ...confirmation },
    },
    now,
  );
  return row;
}

/** PUT /wiki/pages/{id}: one language saved as a new revision (409 when stale). */
export async function savePage(deps: DbClock, actor: Actor, id: number, body: WikiPageSave): Promise<WikiPage> {
  const page = await runTransaction(deps.db, async (tx) => {
    const current = await pageForEdit(tx, actor, id, true);
    const latest = await loadRevision(tx, id, current.latestRevision);
    const before = latest?.content ?? {};
    const content = savedContent(
      before,
      body.lang,
      { title: body.title, markdown: body.markdown },
      current.latestRevision + 1,
      body.status ?? translationStatus(before, body.lang) ?? "draft",
    );
    return appendRevision(tx, deps, actor, current, {
      version: body.version,
      content,
      summary: body.summary ?? "",
      changes: {
        ...(body.requires_confirmation !== undefined && { requiresConfirmation: body.requires_confirmation }),
      },
      audited: { lang: body.lang, ...(body.lang !== SOURCE_LANGUAGE && { status: content[body.lang]?.status }) },
    });
  });
  return pageView(deps.db, actor, page, { lang: body.lang, draft: true });
}

/** POST /wiki/pages/{id}/restore: an earlier revision's text becomes the newest revision. */
export async function restoreRevision(deps: DbClock, actor: Actor, id: number, body: WikiRestore): Promise<WikiPage> {
  const page = await runTransaction(deps.db, async (tx) => {
    const current = await pageForEdit(tx, actor, id, true);
    const old = await loadRevision(tx, id, body.revision);
    if (!old) throw new AppError(ErrorCode.notFound, "Revision not found");
    return appendRevision(tx, deps, actor, current, {
      version: body.version,
      content: old.content,
      summary: `↩ ${body.revision}`,
      audited: { restored: body.revision },
    });
  });
  return pageView(deps.db, actor, page, { draft: true });
}

/** POST /wiki/pages/{id}/release. */
export async function releasePage(deps: DbClock, actor: Actor, id: number, body: WikiRelease): Promise<WikiPage> {
  const page = await runTransaction(deps.db, async (tx) => {
    const current = await pageForEdit(tx, actor, id, true);
    if (current.version !== body.version) throw STALE();
    const number = body.revision ?? current.latestRevision;
    if (number > current.latestRevision || !(await loadRevision(tx, id, number))) {
      throw new AppError(ErrorCode.notFound, "Revision not found");
    }
    const [row] = await tx
      .update(wikiPages)
      .set({
        releasedRevision: number,
        releasedAt: deps.now(),
        releasedBy: personName(actor),
        version: current.version + 1,
        updatedAt: deps.now(),
      })
      .where(eq(wikiPages.id, id))
      .returning();
    await reindexPage(tx, id);
    if (!row) throw PAGE_NOT_FOUND();
    await recordAudit(
      tx,
      {
        kind: "wiki.page_released",
        actor,
        facilityId: current.facilityId,
        data: {
          page: id,
          slug: current.slug,
          before: { revision: current.releasedRevision },
          after: { revision: number },
        },
      },
      deps.now(),
    );
    return row;
  });
  return pageView(deps.db, actor, page, {});
}

/** DELETE /wiki/pages/{id}: retired, with its history kept. */
export async function retirePage(deps: DbClock, actor: Actor, id: number): Promise<void> {
  await runTransaction(deps.db, async (tx) => {
    const page = await pageForEdit(tx, actor, id, true);
    await tx
      .update(wikiPages)
      .set({ retired: true, version: page.version + 1 })
      .where(eq(wikiPages.id, id));
    await reindexPage(tx, id);
    await recordAudit(
      tx,
      { kind: "wiki.page_retired", actor, facilityId: page.facilityId, data: { page: id, slug: page.slug } },
      deps.now(),
    );
  });
}

/* ---------- images ---------- */

/**
 * POST /wiki/images: an image (its type and size read from its own first bytes, imageInfo),
 * streamed into storage as the facility's (null: the common pages'). Named by owner and content,
 * so a second upload of it gives the first's id. It is stored as its image data only, within the
 * installation's media quota (`quota`). A new media row is no learning content (migration 0016):
 * no quiz cache is emptied by it.
 */
export async function storeWikiImage(
  db: Db,
  facilityId: number | null,
  declared: string,
  body: unknown,
  quota: UploadQuota,
): Promise<ImageInfo & { id: number }> {
  if (!(body instanceof Readable)) throw new AppError(ErrorCode.validation, "Send the image as the request body");
  const { head, bytes } = await peekBody(body, (h) => imageInfo(h) !== null, IMAGE_HEAD_BYTES);
  if (head.length === 0) throw new AppError(ErrorCode.validation, "Send the image as the request body");
  const info = imageInfo(head);
  if (!info) throw new AppError(ErrorCode.validation, "Not a PNG, JPEG, WebP or GIF image (SVG is not accepted)");
  if (declared !== info.mime && declared !== "application/octet-stream") {
    throw new AppError(ErrorCode.validation, `The file is ${info.mime}, not ${declared}`);
  }
  const limit = { maxBytes: WIKI_IMAGE_MAX_BYTES, tooLarge: () => tooLarge(WIKI_IMAGE_MAX_BYTES) };
  const id = await storeUpload(
    db,
    bytes,
    limit,
    {
      kind: "wiki",
      mime: info.mime,
      facilityId,
      name: (sha256) => wikiImageName(facilityId, sha256),
    },
    quota,
  );
  return { ...info, id };
}

/* ---------- history ---------- */

/** GET /wiki/pages/{id}/revisions: editors only. */
export async function listRevisions(db: Db, actor: Actor, id: number): Promise<WikiRevisionList> {
  const page = await pageForEdit(db, actor, id);
  const rows = await db
    .select()
    .from(wikiRevisions)
    .where(eq(wikiRevisions.pageId, id))
    .orderBy(desc(wikiRevisions.number));
  return rows.map((r) => ({
    ...revisionInfo(r),
    released: r.number === page.releasedRevision,
    languages: languagesOf(r.content),
  }));
}

/** GET /wiki/pages/{id}/revisions/{number}. */
export async function getRevision(
  db: Db,
  actor: Actor,
  id: number,
  number: number,
  lang: string | undefined,
): Promise<WikiRevision> {
  await pageForEdit(db, actor, id);
  const row = await loadRevision(db, id, number);
  if (!row) throw new AppError(ErrorCode.notFound, "Revision not found");
  const shown = textIn(row.content, lang ?? actor.language);
  return {
    ...revisionInfo(row),
    lang: shown.lang,
    title: shown.text.title,
    markdown: shown.text.markdown,
    html: renderWikiMarkdown(shown.text.markdown),
  };
}
