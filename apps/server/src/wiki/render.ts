import { WIKI_ATTRIBUTES, WIKI_CALLOUTS, WIKI_TAGS, type WikiCallout } from "@carecampus/contract";
import { Marked, type Tokens } from "marked";
import sanitizeHtml from "sanitize-html";
import { productLink } from "../package-format/markdown";

/*
 * Wiki pages are stored as Markdown (ARCHITECTURE decision 14) and rendered here, on the server,
 * to HTML that keeps only WIKI_TAGS and WIKI_ATTRIBUTES: whatever an editor or a package writes,
 * no script, event handler, style or foreign scheme reaches a reader. The browser sanitises the
 * same lists once more.
 */

const ALERT = /^\s*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\n|$)/i;

/** The path an uploaded wiki image is served from (decision 9: the client adds the token). */
export const WIKI_IMAGE_PATH = /^\/api\/static\/wiki\/[1-9][0-9]{0,9}$/;

const markdown = new Marked({
  gfm: true,
  walkTokens(token) {
    // The page title is the screen's level-one heading: a page's own headings start at two.
    if (token.type === "heading") (token as Tokens.Heading).depth = Math.max(2, (token as Tokens.Heading).depth);
  },
  renderer: {
    // Raw HTML in a page is dropped: pages are Markdown only.
    html: () => "",
    blockquote(token: Tokens.Blockquote) {
      const match = ALERT.exec(token.text);
      const inner = this.parser.parse(token.tokens);
      if (!match?.[1]) return `<blockquote>\n${inner}</blockquote>\n`;
      const kind = match[1].toLowerCase() as WikiCallout;
      // The marker opens the first paragraph; what follows it (same paragraph) is the callout's text.
      const body = inner.replace(/^<p>\s*\[![a-z]+\][ \t]*(?:<br>|\n)?\s*/i, "<p>").replace(/<p>\s*<\/p>\n?/g, "");
      return `<div class="callout callout-${kind}" role="note">\n${body}</div>\n`;
    },
  },
});

const CALLOUT_CLASSES = ["callout", ...WIKI_CALLOUTS.map((c) => `callout-${c}`)];

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...WIKI_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(WIKI_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedClasses: { div: CALLOUT_CLASSES },
  allowedSchemes: ["https", "mailto"],
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: productLink,
    div: (_tag, attribs) => {
      const cls = (attribs.class ?? "").split(/\s+/).filter((c) => CALLOUT_CLASSES.includes(c));
      const out: Record<string, string> = cls.length > 0 ? { class: cls.join(" "), role: "note" } : {};
      return { tagName: "div", attribs: out };
    },
  },
  // An image is one uploaded to the wiki (the page's CSP loads nothing from elsewhere); any other
  // (https, data:, javascript:, other paths) goes.
  exclusiveFilter: (frame) => frame.tag === "img" && !WIKI_IMAGE_PATH.test(frame.attribs.src ?? ""),
};

/** A page's Markdown as sanitised HTML. */
export function renderWikiMarkdown(source: string): string {
  const html = markdown.parse(source, { async: false });
  return sanitizeWikiHtml(html);
}

/** Any HTML reduced to what a wiki page may hold. */
export function sanitizeWikiHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE).trim();
}

/** The words of a page for the search index: the rendered text without any markup. */
export function wikiPlainText(source: string): string {
  const html = markdown.parse(source, { async: false });
  return sanitizeHtml(html.replace(/<\/(p|h[1-6]|li|tr|td|th|div|blockquote|pre)>/g, "$&\n"), {
    allowedTags: [],
    allowedAttributes: {},
  })
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+/g, " ")
    .replace(/\n{2,}/g, "\n")
    .trim();
}

/** The image ids a page's Markdown points at (to keep a facility's images within the facility). */
export function wikiImageIds(source: string): number[] {
  return [...source.matchAll(/\/api\/static\/wiki\/([1-9][0-9]{0,9})/g)].map((m) => Number(m[1]));
}
