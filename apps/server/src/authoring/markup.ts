/*
 * Whether a translator's HTML is whole (issue 31): every element opened is closed, in order, and
 * no '<' stands where no tag can start. The sanitiser (content/service.ts) would repair such a text
 * silently — dropping or nesting what the translator meant as text — so an import refuses it and
 * says where it breaks.
 */

/** Elements that have no end tag. */
const VOID = new Set(["br", "hr", "img", "wbr"]);

/** What is broken in `html`, or null when its tags pair up. */
export function brokenMarkup(html: string): string | null {
  const open: string[] = [];
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*?(\/?)>|<!--[\s\S]*?-->|</g;
  for (const m of html.matchAll(tag)) {
    if (m[0] === "<") return `a "<" at character ${(m.index ?? 0) + 1} starts no tag (write &lt; for the sign)`;
    if (m[0].startsWith("<!--")) continue;
    const name = (m[2] ?? "").toLowerCase();
    if (m[1] === "/") {
      const last = open.pop();
      if (last !== name) {
        return last === undefined ? `</${name}> closes nothing` : `</${name}> closes <${last}>`;
      }
    } else if (m[3] !== "/" && !VOID.has(name)) {
      open.push(name);
    }
  }
  return open.length > 0 ? `<${open[open.length - 1]}> is not closed` : null;
}
