/*
 * The HTML that stored content may hold: sanitised on the server when stored, and again in the
 * browser before it is shown (defence in depth). One list for both sides.
 */

/** A question's explanation: simple formatting and links (content/FORMAT.md). */
export const EXPLANATION_TAGS = [
  "p",
  "strong",
  "em",
  "b",
  "i",
  "u",
  "ul",
  "ol",
  "li",
  "br",
  "a",
  "code",
  "small",
  "sub",
  "sup",
] as const;

/** A tutorial page beside that: headings below the page title, notes and tables. */
export const TUTORIAL_TAGS = [
  ...EXPLANATION_TAGS,
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
  "hr",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
] as const;

/** Attributes a link keeps. */
export const LINK_ATTRIBUTES = ["href", "title", "rel", "target"] as const;

/** Callouts of a wiki page: GitHub alerts in Markdown (`> [!WARNING]`), `<div class="callout callout-warning">` in HTML. */
export const WIKI_CALLOUTS = ["note", "tip", "important", "warning", "caution"] as const;
export type WikiCallout = (typeof WIKI_CALLOUTS)[number];

/** A wiki page: the tutorial's tags, page-level headings, images, code and callouts. */
export const WIKI_TAGS = [...TUTORIAL_TAGS, "h2", "img", "div", "pre", "del", "s", "mark"] as const;

/**
 * Attributes a wiki page keeps, by tag: links as everywhere; images only their own (src is a
 * wiki image path or https); a div only the callout classes; table cells their alignment.
 */
export const WIKI_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: LINK_ATTRIBUTES,
  img: ["src", "alt", "title", "width", "height"],
  div: ["class", "role"],
  th: ["align"],
  td: ["align"],
};
