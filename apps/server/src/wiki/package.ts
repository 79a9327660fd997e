import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
  WIKI_MARKDOWN_MAX,
  WIKI_SLUG,
  WIKI_TITLE_MAX,
} from "@carecampus/contract";
import { z } from "zod";
import type { WikiText } from "../db/schema";
import { PAGE_FILE, pageLanguages, splitTitle } from "../package-format/markdown";
import { issues, readYaml } from "../package-format/yaml";

/*
 * The wiki/ folder of a content package (content/FORMAT.md): the common pages of the handbook,
 * validated here with every other part of the package; wiki/import.ts writes them.
 */

const Key = z.string().regex(WIKI_SLUG, "must be a lower-case slug (a-z, 0-9, -)");
const TopicsFile = z
  .object({
    topics: z
      .array(z.object({ key: Key, title: z.string().trim().min(1).max(WIKI_TITLE_MAX) }).strict())
      .min(1)
      .max(200),
  })
  .strict();
const PagesFile = z
  .object({
    pages: z
      .array(z.object({ key: Key, requires_confirmation: z.boolean().default(false) }).strict())
      .min(1)
      .max(500),
  })
  .strict();

export interface WikiPackagePage {
  key: string;
  position: number;
  requiresConfirmation: boolean;
  content: Record<string, WikiText>;
  /** Over title and text of every language and the confirmation flag: unchanged → no new revision. */
  hash: string;
}

export interface WikiPackageTopic {
  key: string;
  title: string;
  position: number;
  pages: WikiPackagePage[];
}

/** A page file: `# Title`, then its Markdown (NFC); the problem as text. */
function readPage(source: string): WikiText | string {
  const split = splitTitle(source, WIKI_TITLE_MAX);
  if (typeof split === "string") return split;
  const markdown = split.body.replace(/^\n+/, "");
  if (markdown.length > WIKI_MARKDOWN_MAX) return `longer than ${WIKI_MARKDOWN_MAX} characters`;
  if (markdown.includes("\u0000")) return "contains a NUL character";
  return { title: split.title.normalize("NFC"), markdown: markdown.normalize("NFC") };
}

/** Reads and validates `wiki/` (absent: no wiki pages). Problems name their file. */
export function loadWiki(dir: string, problems: string[]): WikiPackageTopic[] {
  const root = path.join(dir, "wiki");
  if (!fs.existsSync(root)) return [];
  const topicsRaw = readYaml(dir, "wiki/topics.yaml", problems);
  if (topicsRaw === undefined) return [];
  const topicsFile = TopicsFile.safeParse(topicsRaw);
  if (!topicsFile.success) {
    problems.push(...issues("wiki/topics.yaml", topicsFile.error));
    return [];
  }
  const out: WikiPackageTopic[] = [];
  const seen = new Set<string>();
  for (const [position, topic] of topicsFile.data.topics.entries()) {
    if (seen.has(topic.key)) problems.push(`wiki/topics.yaml: topics.${position}.key: duplicate topic key`);
    seen.add(topic.key);
    const base = path.join(root, topic.key);
    const rel = (f: string) => `wiki/${topic.key}/${f}`;
    const pagesRaw = readYaml(dir, rel("pages.yaml"), problems);
    if (pagesRaw === undefined) continue;
    const pagesFile = PagesFile.safeParse(pagesRaw);
    if (!pagesFile.success) {
      problems.push(...issues(rel("pages.yaml"), pagesFile.error));
      continue;
    }
    // The folder's names, read once: which languages each page has (issue 31).
    const files = fs.existsSync(base) ? fs.readdirSync(base).sort() : [];
    const pages: WikiPackagePage[] = [];
    const pageKeys = new Set<string>();
    for (const [pagePosition, page] of pagesFile.data.pages.entries()) {
      if (pageKeys.has(page.key)) problems.push(`${rel("pages.yaml")}: pages.${pagePosition}.key: duplicate page key`);
      pageKeys.add(page.key);
      const content: Record<string, WikiText> = {};
      const { all, others } = pageLanguages(files, page.key);
      for (const lang of all) {
        const file = path.join(base, `${page.key}.${lang}.md`);
        if (!fs.existsSync(file)) {
          if (lang === DEFAULT_LANGUAGE) problems.push(`${rel(`${page.key}.de.md`)}: missing (German is required)`);
          continue;
        }
        const parsed = readPage(fs.readFileSync(file, "utf8"));
        if (typeof parsed === "string") problems.push(`${rel(`${page.key}.${lang}.md`)}: ${parsed}`);
        else content[lang] = parsed;
      }
      const hash = crypto
        .createHash("sha256")
        .update(
          JSON.stringify([
            page.requires_confirmation,
            LANGUAGES.map((l) => content[l as Language] ?? null),
            // Only where there are any: a page in the interface's languages keeps the hash it had.
            ...(others.length > 0 ? [others.map((l) => [l, content[l] ?? null])] : []),
          ]),
        )
        .digest("hex");
      pages.push({
        key: page.key,
        position: pagePosition,
        requiresConfirmation: page.requires_confirmation,
        content,
        hash,
      });
    }
    // Every page file belongs to a listed page in a known language.
    for (const f of files) {
      if (f === "pages.yaml") continue;
      const m = PAGE_FILE.exec(f);
      if (!m?.[1] || !m[2]) {
        problems.push(`${rel(f)}: not a page file (<page>.<language>.md: de, en, fr, es, br, tr, pl, ar, …)`);
      } else if (!pageKeys.has(m[1])) {
        problems.push(`${rel(f)}: the page '${m[1]}' is not listed in pages.yaml`);
      }
    }
    out.push({ key: topic.key, title: topic.title, position, pages });
  }
  for (const f of fs.readdirSync(root).sort()) {
    if (f !== "topics.yaml" && !seen.has(f)) problems.push(`wiki/${f}: not a topic listed in wiki/topics.yaml`);
  }
  return out;
}

/** Does `/wiki/<topic>/<page>` (or `/wiki/<topic>`, `/wiki`) name something in the package's wiki? */
export function wikiLinkResolves(topics: readonly WikiPackageTopic[], link: string): boolean {
  const [, , topic, page, ...rest] = link.split("/");
  if (rest.length > 0) return false;
  if (!topic) return true;
  const t = topics.find((x) => x.key === topic);
  return !!t && (!page || t.pages.some((p) => p.key === page));
}
