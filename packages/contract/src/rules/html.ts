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
