import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DEFAULT_LANGUAGE, TUTORIAL_TAGS, TutorialAudience } from "@carecampus/contract";
import { Marked, type Tokens } from "marked";
import sanitizeHtml from "sanitize-html";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { PAGE_FILE, pageLanguages, productLink, splitTitle } from "../package-format/markdown";

/*
 * The tutorial/ folder of a content package (content/FORMAT.md): per audience a pages.yaml, a
 * Markdown file per page and language, and the screenshots `npm run tutorial:screens` makes.
 */

const Key = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "must be a lower-case slug (a-z, 0-9, -)");
const PagesFile = z
  .object({
    pages: z
      .array(z.object({ key: Key, screen: Key.optional() }).strict())
      .min(1)
      .max(50),
  })
  .strict();

export interface TutorialPageFile {
  audience: TutorialAudience;
  key: string;
  position: number;
  /** An interface language or another content language (tr, pl, ar, …; issue 31). */
  language: string;
  title: string;
  html: string;
  /** Media name of the screenshot in this language (German when it has none), or null. */
  image: string | null;
}

export interface TutorialImage {
  kind: `${TutorialAudience}-tutorial`;
  name: string;
  mime: string;
  data: Buffer;
  sha256: string;
}

export interface TutorialContent {
  pages: TutorialPageFile[];
  images: TutorialImage[];
}

const IMAGE_MIME: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".webp": "image/webp" };
const IMAGE_MAX = 3 * 1024 * 1024;
const PAGE_MAX = 64 * 1024;

// Page titles are the /help screen's level-two headings, so a page's own headings start at three.
const markdown = new Marked({
  gfm: true,
  walkTokens(token) {
    if (token.type === "heading") (token as Tokens.Heading).depth = Math.min(6, (token as Tokens.Heading).depth + 1);
  },
  renderer: {
    // Raw HTML in a page is dropped: the tutorial is Markdown only.
    html: () => "",
  },
});

/** A page's Markdown (without its title line) as sanitised HTML. */
export function renderTutorialMarkdown(source: string): string {
  const html = markdown.parse(source, { async: false });
  return sanitizeHtml(html, {
    allowedTags: [...TUTORIAL_TAGS],
    allowedAttributes: { a: ["href", "rel", "target"] },
    allowedSchemes: ["https", "mailto"],
    allowProtocolRelative: false,
    transformTags: { a: productLink },
    allowedSchemesAppliedToAttributes: ["href"],
    // Relative links (/progress) are kept; sanitize-html allows them unless a scheme is given.
  }).trim();
}

/**
 * Reads and validates `tutorial/` (absent: no tutorial). Every problem is added to `problems`
 * with its file, like the rest of the package's validation.
 */
export function loadTutorial(dir: string, problems: string[]): TutorialContent {
  const root = path.join(dir, "tutorial");
  const out: TutorialContent = { pages: [], images: [] };
  if (!fs.existsSync(root)) return out;
  for (const entry of fs.readdirSync(root).sort()) {
    if (!TutorialAudience.safeParse(entry).success) {
      problems.push(`tutorial/${entry}: unknown audience (admin, employee)`);
    }
  }
  for (const audience of TutorialAudience.options) {
    const base = path.join(root, audience);
    if (!fs.existsSync(base)) continue;
    const rel = (f: string) => `tutorial/${audience}/${f}`;
    // Screenshots: images/<screen>-<lang>_2x.<ext>
    const images = new Map<string, TutorialImage>();
    const imageDir = path.join(base, "images");
    if (fs.existsSync(imageDir)) {
      for (const f of fs.readdirSync(imageDir).sort()) {
        const ext = path.extname(f).toLowerCase();
        const name = f.slice(0, -ext.length);
        const mime = IMAGE_MIME[ext];
        if (!mime || !/^[a-z0-9][a-z0-9-]{0,62}-[a-z]{2,3}_2x$/.test(name)) {
          problems.push(`${rel(`images/${f}`)}: must be named <screen>-<lang>_2x.png (or .jpg, .webp)`);
          continue;
        }
        const data = fs.readFileSync(path.join(imageDir, f));
        if (data.length > IMAGE_MAX) {
          problems.push(`${rel(`images/${f}`)}: too large (${data.length} bytes, at most ${IMAGE_MAX})`);
          continue;
        }
        if (images.has(name)) problems.push(`${rel(`images/${f}`)}: ${name} exists in two formats`);
        images.set(name, {
          kind: `${audience}-tutorial`,
          name,
          mime,
          data,
          sha256: crypto.createHash("sha256").update(data).digest("hex"),
        });
      }
    }
    out.images.push(...images.values());

    let raw: unknown;
    try {
      raw = parseYaml(fs.readFileSync(path.join(base, "pages.yaml"), "utf8"));
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      problems.push(
        `${rel("pages.yaml")}: ${missing ? "file is missing" : `not valid YAML: ${(err as Error).message.split("\n")[0]}`}`,
      );
      continue;
    }
    const parsed = PagesFile.safeParse(raw);
    if (!parsed.success) {
      for (const i of parsed.error.issues) {
        problems.push(`${rel("pages.yaml")}: ${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`);
      }
      continue;
    }

    const seen = new Set<string>();
    const known = new Set(parsed.data.pages.map((p) => p.key));
    const files = fs.readdirSync(base).sort();
    for (const f of files) {
      const m = PAGE_FILE.exec(f);
      if (f === "pages.yaml" || f === "images") continue;
      if (!m || !known.has(m[1] ?? "")) {
        problems.push(`${rel(f)}: not a page of pages.yaml in a language (<page>.<de|en|fr|es|br|tr|…>.md)`);
      }
    }
    for (const [position, page] of parsed.data.pages.entries()) {
      if (seen.has(page.key)) problems.push(`${rel("pages.yaml")}: pages.${position}.key: duplicate key ${page.key}`);
      seen.add(page.key);
      if (!fs.existsSync(path.join(base, `${page.key}.${DEFAULT_LANGUAGE}.md`))) {
        problems.push(`${rel(`${page.key}.${DEFAULT_LANGUAGE}.md`)}: file is missing (German is required)`);
        continue;
      }
      for (const language of pageLanguages(files, page.key).all) {
        const file = path.join(base, `${page.key}.${language}.md`);
        if (!fs.existsSync(file)) continue;
        const source = fs.readFileSync(file);
        if (source.length > PAGE_MAX) {
          problems.push(`${rel(`${page.key}.${language}.md`)}: longer than ${PAGE_MAX} bytes`);
          continue;
        }
        const split = splitTitle(source.toString("utf8"));
        if (typeof split === "string") {
          problems.push(`${rel(`${page.key}.${language}.md`)}: ${split}`);
          continue;
        }
        const own = page.screen ? `${page.screen}-${language}_2x` : null;
        const fallback = page.screen ? `${page.screen}-${DEFAULT_LANGUAGE}_2x` : null;
        const image = own && images.has(own) ? own : fallback && images.has(fallback) ? fallback : null;
        out.pages.push({
          audience,
          key: page.key,
          position,
          language,
          title: split.title,
          html: renderTutorialMarkdown(split.body),
          image,
        });
      }
    }
  }
  return out;
}
