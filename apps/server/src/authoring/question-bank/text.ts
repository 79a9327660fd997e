import { marked } from "marked";
import sanitizeHtml from "sanitize-html";

/*
 * Text handling shared by both formats: HTML to the plain text the quiz shows for questions and
 * answers, plain text to the HTML an explanation is stored as, names, categories and what an HTML
 * fragment holds that CareCampus does not import (media, formatting).
 */

/** Block-level tags whose boundaries become line breaks (or spaces for table cells) in plain text. */
const LINE_TAGS = ["p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "dt", "dd"];
const CELL_TAGS = ["td", "th"];

/** HTML to plain text: tags removed (their text kept), block ends as line breaks, entities decoded, spaces tidied. */
export function htmlToText(html: string): string {
  if (!/[<&]/.test(html)) return tidyText(html); // no markup: most answers
  // sanitize-html parses like a browser and drops everything but the listed tags, without
  // attributes; its output is then regular enough to turn those tags into breaks.
  const kept = sanitizeHtml(html, {
    allowedTags: ["br", ...LINE_TAGS, ...CELL_TAGS],
    allowedAttributes: {},
    nonTextTags: ["style", "script", "textarea", "option", "noscript", "title", "head"],
  });
  const text = kept
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/<\/?(?:td|th)>/g, " ")
    .replace(/<\/?[a-z0-9]+>/g, "\n");
  return tidyText(decodeHtmlEscapes(text));
}

/** The escapes sanitize-html writes into text, back to characters (&amp; last, so nothing is decoded twice). */
function decodeHtmlEscapes(text: string): string {
  return text.replace(/&(lt|gt|quot|#39|amp);/g, (_m, name: string) => HTML_ESCAPES[name] ?? _m);
}
const HTML_ESCAPES: Record<string, string> = { lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" };

/** Spaces (including no-break spaces) collapsed per line, lines trimmed, empty lines dropped. */
export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[\s\u00a0]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plain text as HTML: escaped, line breaks as <br>. */
export function plainToHtml(text: string): string {
  return escapeHtml(text.trim()).replace(/\r\n?|\n/g, "<br>");
}

export function markdownToHtml(text: string): string {
  return marked.parse(text, { async: false, gfm: true });
}

/** The first words of a text, at most `max` characters, cut at a word boundary with '…'. */
export function firstWords(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A Moodle category path ("$course$/top/Hygiene/Hände//Flächen") as CareCampus shows it
 * ("Hygiene / Hände/Flächen"): the context ($course$, $system$, $module$, $cat1$ …) and Moodle's
 * "top" level dropped; "//" is Moodle's escape for a "/" inside a name. Null when nothing is left.
 */
export function categoryPath(path: string): string | null {
  const segments = path
    .trim()
    .split(/(?<!\/)\/(?!\/)/)
    .map((s) => s.replace(/\/\//g, "/").trim())
    .filter((s) => s !== "");
  if (segments[0] !== undefined && /^\$[a-z0-9_]*\$$/i.test(segments[0])) segments.shift();
  if (segments[0] === "top") segments.shift();
  return segments.length ? segments.join(" / ") : null;
}

/** Moodle writes links to a question's own files as @@PLUGINFILE@@/name. */
const MEDIA_TAG = /<(img|video|audio|source|object|embed|iframe)\b[^>]*>/gi;
const SRC_ATTRIBUTE = /\b(?:src|data)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const PLUGINFILE = /@@PLUGINFILE@@\/([^"'\s<>?#]+)/g;

/** The media an HTML fragment refers to (images, videos, Moodle's own files), by file name or address. */
export function mediaReferences(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(MEDIA_TAG)) {
    const src = SRC_ATTRIBUTE.exec(m[0]);
    const value = src ? (src[1] ?? src[2] ?? src[3] ?? "") : "";
    found.add(mediaName(value) || (m[1] ?? "media").toLowerCase());
  }
  for (const m of html.matchAll(PLUGINFILE)) found.add(mediaName(`@@PLUGINFILE@@/${m[1] ?? ""}`));
  return [...found];
}

function mediaName(src: string): string {
  if (src.startsWith("data:")) return "data:";
  const plugin = /^@@PLUGINFILE@@\/(.+)$/.exec(src);
  if (plugin?.[1]) {
    try {
      return decodeURIComponent(plugin[1]);
    } catch {
      return plugin[1];
    }
  }
  return src;
}

/** Tags that only wrap text: turning them into plain text loses nothing a learner would miss. */
const WRAPPER_TAGS = new Set(["p", "br", "span", "div", "font"]);
const ANY_TAG = /<\/?([a-z][a-z0-9]*)\b[^>]*>/gi;

/** Whether an HTML fragment has formatting that plain text loses (bold, lists, tables, …); media are counted apart. */
export function hasFormatting(html: string): boolean {
  for (const m of html.matchAll(ANY_TAG)) {
    const tag = (m[1] ?? "").toLowerCase();
    if (!WRAPPER_TAGS.has(tag) && !MEDIA_TAG_NAMES.has(tag)) return true;
  }
  return false;
}
const MEDIA_TAG_NAMES = new Set(["img", "video", "audio", "source", "object", "embed", "iframe"]);

/** Input as both parsers want it: no byte-order mark, Unix line ends. */
export function normaliseInput(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, "\n");
}
