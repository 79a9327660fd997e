import { WIKI_ATTRIBUTES, WIKI_CALLOUTS, WIKI_TAGS, type WikiCallout } from "@carecampus/contract";
import DOMPurify from "dompurify";

/** Where an uploaded wiki image lives: it needs the session's token to load (decision 9). */
export const WIKI_IMAGE_SRC = /^\/api\/static\/wiki\/[1-9][0-9]{0,9}$/;
const CALLOUT_CLASS = new RegExp(`^callout callout-(${WIKI_CALLOUTS.join("|")})$`);
const ALL_ATTRIBUTES = [...new Set(Object.values(WIKI_ATTRIBUTES).flat())];

export interface WikiHtmlOptions {
  /** The translated title of a callout ('Warnung', 'Hinweis', …). */
  calloutTitle(kind: WikiCallout): string;
  /** The address an image of ours is loaded from (with the token). */
  imageUrl(src: string): string;
  /** The name of a table's scrolling box. */
  tableLabel: string;
}

let purifier: ReturnType<typeof DOMPurify> | null = null;

/** An instance of our own: its per-tag attribute hook must not touch the other sanitised texts. */
function purify(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook("uponSanitizeAttribute", (node, data) => {
    const tag = node.nodeName.toLowerCase();
    if (!WIKI_ATTRIBUTES[tag]?.includes(data.attrName)) {
      data.keepAttr = false;
      return;
    }
    if (tag === "div" && data.attrName === "class" && !CALLOUT_CLASS.test(data.attrValue.trim())) data.keepAttr = false;
    if (
      tag === "img" &&
      data.attrName === "src" &&
      !(WIKI_IMAGE_SRC.test(data.attrValue) || /^https:\/\//.test(data.attrValue))
    ) {
      data.keepAttr = false;
    }
  });
  purifier = p;
  return p;
}

/**
 * A page's HTML from the server, sanitised once more (WIKI_TAGS, WIKI_ATTRIBUTES by tag) and made
 * ready to show: images of ours carry the token, a callout gets its translated title and icon,
 * a table scrolls in a box of its own so the page never scrolls sideways on a phone.
 */
export function prepareWikiHtml(html: string, options: WikiHtmlOptions): string {
  const fragment = purify().sanitize(html, {
    ALLOWED_TAGS: [...WIKI_TAGS],
    ALLOWED_ATTR: ALL_ATTRIBUTES,
    RETURN_DOM_FRAGMENT: true,
  });
  const doc = fragment.ownerDocument;
  for (const img of fragment.querySelectorAll("img")) {
    const src = img.getAttribute("src") ?? "";
    if (!src) {
      img.remove();
      continue;
    }
    if (WIKI_IMAGE_SRC.test(src)) img.setAttribute("src", options.imageUrl(src));
    if (!img.hasAttribute("alt")) img.setAttribute("alt", "");
    img.setAttribute("loading", "lazy");
  }
  for (const div of fragment.querySelectorAll("div")) {
    const kind = CALLOUT_CLASS.exec(div.getAttribute("class") ?? "")?.[1] as WikiCallout | undefined;
    if (!kind) {
      div.removeAttribute("class");
      div.removeAttribute("role");
      continue;
    }
    div.setAttribute("role", "note");
    div.setAttribute("data-callout", kind);
    const title = doc.createElement("p");
    title.setAttribute("data-callout-title", "");
    const icon = doc.createElement("span");
    icon.setAttribute("data-callout-icon", "");
    icon.setAttribute("aria-hidden", "true");
    title.append(icon, doc.createTextNode(options.calloutTitle(kind)));
    div.prepend(title);
  }
  for (const table of fragment.querySelectorAll("table")) {
    const box = doc.createElement("div");
    box.setAttribute("data-table-box", "");
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", options.tableLabel);
    box.setAttribute("tabindex", "0");
    table.replaceWith(box);
    box.append(table);
  }
  const holder = doc.createElement("div");
  holder.append(fragment);
  return holder.innerHTML;
}
