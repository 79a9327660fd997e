import { WIKI_MARK_END, WIKI_MARK_START, type WikiSearchQuery, type WikiSearchResult } from "@carecampus/contract";
import { sql } from "drizzle-orm";
import type { Actor } from "../access/policy";
import type { Db } from "../db/client";
import { facilityInView } from "./pages";

/** Hits per search: a reader looks at the first screen, not the hundredth. */
const LIMIT = 20;

const HEADLINE = `StartSel=${WIKI_MARK_START}, StopSel=${WIKI_MARK_END}, MaxWords=28, MinWords=10, MaxFragments=2, FragmentDelimiter=" … "`;

/**
 * GET /wiki/search: PostgreSQL full-text search over the released pages the caller may see,
 * in the reader's language and German (each in its own configuration), ranked with titles
 * above text, one hit per page (the reader's language first), with marked snippets.
 */
export async function searchWiki(db: Db, actor: Actor, query: WikiSearchQuery): Promise<WikiSearchResult> {
  const started = performance.now();
  const inView = await facilityInView(db, actor, query.facility);
  const lang = query.lang ?? actor.language;
  const result = await db.execute<{
    id: number;
    topic: string;
    topic_title: string;
    slug: string;
    title: string;
    snippet: string;
    rank: number;
  }>(sql`
    with hits as (
      select distinct on (p.id)
        p.id, t.key as topic, t.title as topic_title, p.slug, s.title,
        s.config, s.body, q.query,
        ts_rank_cd(s.document, q.query) as rank
      from wiki_search s
      join wiki_pages p on p.id = s.page_id
      join wiki_topics t on t.id = p.topic_id
      cross join lateral (select websearch_to_tsquery(s.config::regconfig, ${query.q}) as query) q
      where s.lang in (${lang}, 'de')
        and s.document @@ q.query
        and not p.retired and not t.retired
        and (p.facility_id is null or p.facility_id = ${inView ?? 0})
        and (t.facility_id is null or t.facility_id = ${inView ?? 0})
      order by p.id, (s.lang = ${lang}) desc, rank desc
    ), top as (
      select * from hits order by rank desc, id limit ${sql.raw(String(LIMIT))}
    )
    select id, topic, topic_title, slug, title,
      ts_headline(config::regconfig, body, query, ${HEADLINE}) as snippet, rank
    from top order by rank desc, id
  `);
  return {
    hits: result.rows.map((r) => ({
      id: Number(r.id),
      topic: String(r.topic),
      topic_title: String(r.topic_title),
      slug: String(r.slug),
      title: String(r.title),
      snippet: String(r.snippet),
      rank: Number(r.rank),
    })),
    took_ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
