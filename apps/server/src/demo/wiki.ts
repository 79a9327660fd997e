import fs from "node:fs";
import { personName } from "@carecampus/contract";
import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../db/client";
import { facilities, users, wikiConfirmations, wikiPages, wikiRevisions, wikiTopics } from "../db/schema";
import { splitTitle } from "../package-format/markdown";
import { serverPath } from "../paths";
import { reindexPage } from "../wiki/service";

/** Haus Sonnenhof's own pages (Markdown in src/demo/wiki/), written and released by its administrator. */
const FACILITY_PAGES = [
  { slug: "alarmplan", file: "sonnenhof-alarmplan.md", requiresConfirmation: true },
  { slug: "hygieneplan-kueche", file: "sonnenhof-hygieneplan-kueche.md", requiresConfirmation: false },
] as const;

/**
 * Demo wiki beside the package's common pages: a facility topic of Haus Sonnenhof with its own
 * procedures, and read confirmations in every state (the supervisor confirmed the alarm plan
 * and the hand-hygiene page; the employee has not yet), so /wiki shows the whole flow.
 */
export async function seedDemoWiki(tx: Tx, now: Date): Promise<void> {
  const [facility] = await tx.select().from(facilities).where(eq(facilities.name, "Haus Sonnenhof"));
  const [admin] = await tx.select().from(users).where(eq(users.login, "admin"));
  if (!facility || !admin) return;
  const [topic] = await tx
    .insert(wikiTopics)
    .values({
      key: "haus-sonnenhof",
      title: "Haus Sonnenhof: unsere Verfahren",
      facilityId: facility.id,
      position: 100,
    })
    .returning();
  if (!topic) return;
  const author = personName(admin);
  const confirmedBy = await tx.select().from(users).where(eq(users.login, "supervisor"));
  for (const [position, p] of FACILITY_PAGES.entries()) {
    const path = serverPath(`src/demo/wiki/${p.file}`);
    if (!fs.existsSync(path)) continue;
    const split = splitTitle(fs.readFileSync(path, "utf8"));
    if (typeof split === "string") throw new Error(`src/demo/wiki/${p.file}: ${split}`);
    const title = split.title;
    const markdown = split.body.replace(/^\n+/, "");
    const [page] = await tx
      .insert(wikiPages)
      .values({
        topicId: topic.id,
        facilityId: facility.id,
        slug: p.slug,
        position,
        requiresConfirmation: p.requiresConfirmation,
        latestRevision: 1,
        releasedRevision: 1,
        releasedAt: now,
        releasedBy: author,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!page) continue;
    await tx.insert(wikiRevisions).values({
      pageId: page.id,
      number: 1,
      content: { de: { title, markdown } },
      summary: "Erste Fassung",
      authorId: admin.id,
      authorName: author,
      createdAt: now,
    });
    await reindexPage(tx, page.id);
    if (p.requiresConfirmation) {
      for (const u of confirmedBy) {
        await tx.insert(wikiConfirmations).values({ pageId: page.id, userId: u.id, revision: 1, confirmedAt: now });
      }
    }
  }
  // A common page of the package, confirmed by the supervisor as well.
  const [hygiene] = await tx
    .select({ id: wikiPages.id, released: wikiPages.releasedRevision })
    .from(wikiPages)
    .innerJoin(wikiTopics, eq(wikiTopics.id, wikiPages.topicId))
    .where(and(eq(wikiTopics.key, "hygiene"), eq(wikiPages.slug, "haendehygiene"), isNull(wikiPages.facilityId)));
  if (hygiene?.released) {
    for (const u of confirmedBy) {
      await tx
        .insert(wikiConfirmations)
        .values({ pageId: hygiene.id, userId: u.id, revision: hygiene.released, confirmedAt: now });
    }
  }
}
