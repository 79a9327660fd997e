import { EXPLANATION_TAGS, LINK_ATTRIBUTES } from "@carecampus/contract";
import DOMPurify from "dompurify";
import classes from "./SafeHtml.module.css";

/**
 * This component's own DOMPurify: a table wider than its place scrolls sideways
 * (SafeHtml.module.css), so every table takes the keyboard focus to be scrolled by keys too.
 */
const purify = DOMPurify();
purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.nodeName === "TABLE") node.setAttribute("tabindex", "0");
});

/**
 * HTML from the server, sanitised once more in the browser (defence in depth: the server
 * stores it sanitised already). Links keep only href, title, rel and target.
 */

export function SafeHtml({ html, tags = EXPLANATION_TAGS }: { html: string; tags?: readonly string[] }) {
  const clean = purify.sanitize(html, { ALLOWED_TAGS: [...tags], ALLOWED_ATTR: [...LINK_ATTRIBUTES] });
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above
  return <div className={classes.html} dangerouslySetInnerHTML={{ __html: clean }} />;
}
