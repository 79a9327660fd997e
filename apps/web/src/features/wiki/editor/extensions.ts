import type { WikiCallout } from "@carecampus/contract";
import type { AnyExtension } from "@tiptap/core";
import Image from "@tiptap/extension-image";
import { TableKit } from "@tiptap/extension-table";
import { Markdown } from "@tiptap/markdown";
import StarterKit from "@tiptap/starter-kit";
import { WIKI_IMAGE_SRC } from "../html";
import { Callout } from "./callout";

/** What a link in a page may point at: https, mail, or a path inside the product. */
export const ALLOWED_LINK = /^(https:\/\/|mailto:|\/(?!\/))/i;

/** An image of ours is stored as its bare path; only the editor's display adds the token. */
const wikiImage = (imageUrl: (src: string) => string) =>
  Image.extend({
    addAttributes() {
      return {
        ...this.parent?.(),
        src: {
          default: null,
          parseHTML: (el: HTMLElement) => el.getAttribute("src")?.replace(/\?.*$/, "") ?? null,
          renderHTML: (attrs: { src?: string | null }) => ({
            src: attrs.src && WIKI_IMAGE_SRC.test(attrs.src) ? imageUrl(attrs.src) : attrs.src,
          }),
        },
      };
    },
  });

export interface WikiExtensionOptions {
  calloutLabels?: Partial<Record<WikiCallout, string>>;
  imageUrl?: (src: string) => string;
}

/** The editor's schema: what a wiki page's Markdown can hold (content/FORMAT.md), nothing more. */
export function wikiExtensions(options: WikiExtensionOptions = {}): AnyExtension[] {
  return [
    StarterKit.configure({
      // No Markdown for underline: the server would drop the raw HTML it needs.
      underline: false,
      heading: { levels: [2, 3, 4] },
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: "https",
        isAllowedUri: (url) => ALLOWED_LINK.test(url),
        shouldAutoLink: (url) => /^https:\/\//i.test(url) || /^[\w.-]+\.[a-z]{2,}/i.test(url),
      },
    }),
    TableKit.configure({ table: { resizable: false } }),
    wikiImage(options.imageUrl ?? ((s: string) => s)).configure({ inline: false, allowBase64: false }),
    Callout.configure({ labels: options.calloutLabels ?? {} }),
    Markdown.configure({ markedOptions: { gfm: true } }),
  ];
}

/** Page headings start at level two (the title is the screen's level one): `# x` becomes `## x`. */
export function demoteTopHeadings(markdown: string): string {
  let fenced = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
      return !fenced && /^ {0,3}# /.test(line) ? line.replace("# ", "## ") : line;
    })
    .join("\n");
}
