import { WIKI_CALLOUTS, type WikiCallout } from "@carecampus/contract";
import { mergeAttributes, Node } from "@tiptap/core";

declare module "@tiptap/core" {
  interface Commands<ReturnType> {
    callout: {
      /** Wraps the selected blocks in a callout of `kind`; inside one of that kind, unwraps them. */
      toggleCallout: (kind: WikiCallout) => ReturnType;
    };
  }
}

const KINDS = WIKI_CALLOUTS.map((k) => k.toUpperCase()).join("|");
/** `> [!WARNING]` on a line of its own, then the quoted lines that belong to it (GitHub alerts). */
const ALERT = new RegExp(`^ {0,3}> ?\\[!(${KINDS})\\][ \\t]*(?:\\n|$)((?: {0,3}>[^\\n]*(?:\\n|$))*)`, "i");

export interface CalloutOptions {
  /** The translated names the editor shows above a callout. */
  labels: Partial<Record<WikiCallout, string>>;
}

/**
 * A callout block (note, tip, important, warning, caution) read from and written as GitHub alert
 * syntax, the format the server renders into `<div class="callout callout-…">`:
 *
 *     > [!WARNING]
 *     > Vor jeder Desinfektion Schmuck ablegen.
 */
export const Callout = Node.create<CalloutOptions>({
  name: "callout",
  group: "block",
  content: "block+",
  defining: true,

  addOptions() {
    return { labels: {} };
  },

  addAttributes() {
    return {
      kind: {
        default: "note" satisfies WikiCallout,
        parseHTML: (el) => {
          const kind = el.getAttribute("data-callout") as WikiCallout | null;
          return kind && WIKI_CALLOUTS.includes(kind) ? kind : "note";
        },
        renderHTML: (attrs) => ({ "data-callout": attrs.kind }),
      },
    };
  },

  parseHTML() {
    return [{ tag: "div[data-callout]" }];
  },

  renderHTML({ node, HTMLAttributes }) {
    const label = this.options.labels[node.attrs.kind as WikiCallout] ?? node.attrs.kind;
    return ["div", mergeAttributes(HTMLAttributes, { "data-label": label }), 0];
  },

  markdownTokenName: "callout",

  markdownTokenizer: {
    name: "callout",
    level: "block",
    start: (src: string) => {
      const match = /^ {0,3}> ?\[!/m.exec(src);
      return match ? match.index : -1;
    },
    tokenize: (src, _tokens, lexer) => {
      const match = ALERT.exec(src);
      if (!match) return undefined;
      const body = (match[2] ?? "")
        .split("\n")
        .map((line) => line.replace(/^ {0,3}> ?/, ""))
        .join("\n")
        .trim();
      return {
        type: "callout",
        raw: match[0],
        kind: (match[1] ?? "note").toLowerCase(),
        tokens: lexer.blockTokens(body),
      };
    },
  },

  parseMarkdown: (token, helpers) => {
    const children = (helpers.parseBlockChildren ?? helpers.parseChildren)(token.tokens ?? []);
    const kind = WIKI_CALLOUTS.includes(token.kind as WikiCallout) ? token.kind : "note";
    return helpers.createNode("callout", { kind }, children.length > 0 ? children : [helpers.createNode("paragraph")]);
  },

  renderMarkdown: (node, h) => {
    const kind = String(node.attrs?.kind ?? "note").toUpperCase();
    const blocks = (node.content ?? []).map((child, i) => h.renderChild?.(child, i) ?? h.renderChildren([child]));
    const body = blocks
      .join("\n\n")
      .split("\n")
      .map((line) => (line.trim() === "" ? ">" : `> ${line}`));
    return [`> [!${kind}]`, ...body].join("\n");
  },

  addCommands() {
    return {
      toggleCallout:
        (kind) =>
        ({ editor, commands }) => {
          if (editor.isActive(this.name, { kind })) return commands.lift(this.name);
          if (editor.isActive(this.name)) return commands.updateAttributes(this.name, { kind });
          return commands.wrapIn(this.name, { kind });
        },
    };
  },
});
