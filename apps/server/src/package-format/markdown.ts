import { LANGUAGES } from "@carecampus/contract";
import type sanitizeHtml from "sanitize-html";

/*
 * Markdown pages of a content package (the tutorial's, content/; the wiki's, wiki/): the title
 * line every page starts with, and how a rendered link behaves. Here, not in either reader, so
 * the package importer (content/) may use the wiki and the wiki need not use the importer.
 */

/** Splits `# Title` from the body; the problem when the first line is not a level-one heading. */
export function splitTitle(source: string, maxTitle = 120): { title: string; body: string } | string {
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const match = /^# +(.+?)\s*(?:\n|$)/.exec(text);
  if (!match?.[1]) return "must start with its title as a level-one heading (# Title)";
  const title = match[1].trim();
  if (title.length > maxTitle) return `the title is longer than ${maxTitle} characters`;
  return { title, body: text.slice(match[0].length) };
}

/**
 * A link of rendered Markdown (tutorial, wiki): inside the product it stays in the tab; outside
 * ones open a new one without an opener. Only href and title are kept.
 */
export const productLink: sanitizeHtml.Transformer = (_tag, attribs) => {
  const href = attribs.href ?? "";
  const internal = href.startsWith("/") && !href.startsWith("//");
  const out: Record<string, string> = internal ? { href } : { href, rel: "noopener noreferrer", target: "_blank" };
  if (attribs.title) out.title = attribs.title;
  return { tagName: "a", attribs: out };
};

/** A page's file name: `<page>.<language>.md`, the language a two- or three-letter code (de, en, tr, …). */
export const PAGE_FILE = /^([a-z0-9][a-z0-9-]{0,62})\.([a-z]{2,3})\.md$/;

/**
 * The languages `files` (a folder's names) hold the page `key` in (issue 31): the interface's
 * languages in their order, then any other content language there is a file for, alphabetically.
 * The interface's are listed whether or not their file exists; the reader checks.
 */
export function pageLanguages(files: readonly string[], key: string): { all: string[]; others: string[] } {
  const others = files
    .map((f) => PAGE_FILE.exec(f))
    .filter((m): m is RegExpExecArray => m?.[1] === key && !(LANGUAGES as readonly string[]).includes(m[2] ?? ""))
    .map((m) => m[2] as string)
    .sort();
  return { all: [...LANGUAGES, ...others], others };
}
