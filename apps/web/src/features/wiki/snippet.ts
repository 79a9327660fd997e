import { WIKI_MARK_END, WIKI_MARK_START } from "@carecampus/contract";

export interface SnippetPart {
  text: string;
  mark: boolean;
}

/**
 * A search snippet split at the server's markers into plain and matched parts, to be shown as
 * text and <mark> elements (never as HTML). A marker without its partner ends or opens nothing.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let mark = false;
  let current = "";
  const push = () => {
    if (current) parts.push({ text: current, mark });
    current = "";
  };
  for (const ch of snippet) {
    if (ch === WIKI_MARK_START) {
      push();
      mark = true;
    } else if (ch === WIKI_MARK_END) {
      push();
      mark = false;
    } else current += ch;
  }
  push();
  return parts;
}
