import { DEFAULT_LANGUAGE, endpoints, endpointUrl, type Tutorial, type TutorialAudience } from "@carecampus/contract";
import { and, asc, eq, inArray } from "drizzle-orm";
import { type Actor, assertMay } from "../access/policy";
import type { Db } from "../db/client";
import { tutorialPages } from "../db/schema";

/**
 * GET /Tutorial?Role=admin|employee: the pages of that audience in `language` (the caller's
 * by default), each page in German where it lacks the language. The staff version is for
 * staff (spec §6); everyone may read the employee version.
 */
export async function getTutorial(
  db: Db,
  actor: Actor,
  audience: TutorialAudience,
  language: string | undefined,
): Promise<Tutorial> {
  if (audience === "admin") assertMay(actor, "tutorial.admin");
  const wanted = language ?? actor.language;
  const rows = await db
    .select()
    .from(tutorialPages)
    .where(and(eq(tutorialPages.audience, audience), inArray(tutorialPages.language, [wanted, DEFAULT_LANGUAGE])))
    .orderBy(asc(tutorialPages.position));
  const byKey = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const held = byKey.get(row.key);
    if (!held || row.language === wanted) byKey.set(row.key, row);
  }
  const image = audience === "admin" ? endpoints.staticAdminTutorial : endpoints.staticEmployeeTutorial;
  return {
    role: audience,
    language: wanted,
    pages: [...byKey.values()].map((p) => ({
      key: p.key,
      title: p.title,
      html: p.html,
      image: p.image ? endpointUrl(image, { params: { name: p.image } }) : null,
      lang: p.language,
    })),
  };
}
