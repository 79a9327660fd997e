import { and, eq, isNull, notInArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { wikiPages, wikiRevisions, wikiTopics } from "../db/schema";
import type { WikiPackageTopic } from "./package";
import { reindexPage } from "./service";

export interface WikiImportCounts {
  pages: number;
  revisions: number;
}

/**
 * Writes the package's wiki pages inside the content import's transaction. Package pages are
 * released as they come; a page whose package text changed gets a new revision on top of its
 * history (edits made in the app stay there) and is released again. Package topics and pages
 * the package no longer has are retired; what was written in the app is never touched.
 */
export async function importWiki(
  tx: Tx,
  topics: readonly WikiPackageTopic[],
  version: string,
  now: Date,
): Promise<WikiImportCounts> {
  let revisions = 0;
  const keptTopics: number[] = [];
  const keptPages: number[] = [];
  for (const topic of topics) {
    const [existing] = await tx
      .select()
      .from(wikiTopics)
      .where(and(eq(wikiTopics.key, topic.key), isNull(wikiTopics.facilityId)));
    const topicId = existing
      ? (
          await tx
            .update(wikiTopics)
            .set({ title: topic.title, position: topic.position, retired: false, origin: "package" })
            .where(eq(wikiTopics.id, existing.id))
            .returning({ id: wikiTopics.id })
        )[0]?.id
      : (
          await tx
            .insert(wikiTopics)
            .values({ key: topic.key, title: topic.title, position: topic.position, origin: "package" })
            .returning({ id: wikiTopics.id })
        )[0]?.id;
    if (topicId === undefined) continue;
    keptTopics.push(topicId);
    for (const page of topic.pages) {
      const [current] = await tx
        .select()
        .from(wikiPages)
        .where(and(eq(wikiPages.topicId, topicId), eq(wikiPages.slug, page.key), isNull(wikiPages.facilityId)));
      if (current && current.origin !== "package") continue; // a page written in the app keeps its place
      if (current) keptPages.push(current.id);
      if (current && current.packageHash === page.hash && !current.retired) {
        await tx.update(wikiPages).set({ position: page.position }).where(eq(wikiPages.id, current.id));
        continue;
      }
      const number = (current?.latestRevision ?? 0) + 1;
      const values = {
        position: page.position,
        requiresConfirmation: page.requiresConfirmation,
        packageHash: page.hash,
        latestRevision: number,
        releasedRevision: number,
        releasedAt: now,
        releasedBy: "",
        retired: false,
        updatedAt: now,
      };
      const [row] = current
        ? await tx
            .update(wikiPages)
            .set({ ...values, version: current.version + 1 })
            .where(eq(wikiPages.id, current.id))
            .returning({ id: wikiPages.id })
        : await tx
            .insert(wikiPages)
            .values({ ...values, topicId, slug: page.key, origin: "package", createdAt: now })
            .returning({ id: wikiPages.id });
      if (!row) continue;
      if (!current) keptPages.push(row.id);
      await tx.insert(wikiRevisions).values({
        pageId: row.id,
        number,
        content: page.content,
        summary: `Inhaltspaket ${version}`,
        authorName: "",
        createdAt: now,
      });
      await reindexPage(tx, row.id);
      revisions++;
    }
  }
  // Package pages and topics the package no longer has: retired, kept with their history.
  const gone = await tx
    .update(wikiPages)
    .set({ retired: true })
    .where(
      and(
        eq(wikiPages.origin, "package"),
        eq(wikiPages.retired, false),
        notInArray(wikiPages.id, keptPages.length ? keptPages : [0]),
      ),
    )
    .returning({ id: wikiPages.id });
  for (const { id } of gone) await reindexPage(tx, id);
  await tx
    .update(wikiTopics)
    .set({ retired: true })
    .where(
      and(
        eq(wikiTopics.origin, "package"),
        notInArray(wikiTopics.id, keptTopics.length ? keptTopics : [0]),
        // A topic that holds pages written in the app stays.
        sql`not exists (select 1 from wiki_pages p where p.topic_id = ${wikiTopics.id} and p.origin = 'app' and not p.retired)`,
      ),
    );
  return { pages: keptPages.length, revisions };
}
