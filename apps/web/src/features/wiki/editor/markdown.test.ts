import { getSchema } from "@tiptap/core";
import { MarkdownManager } from "@tiptap/markdown";
import { Node as PmNode } from "@tiptap/pm/model";
import { describe, expect, it } from "vitest";
import { demoteTopHeadings, wikiExtensions } from "./extensions";

const extensions = wikiExtensions();
const manager = new MarkdownManager({ extensions });
const schema = getSchema(extensions);

/** Markdown → the editor's document (checked against the schema) → Markdown. */
function roundTrip(markdown: string): string {
  const json = manager.parse(markdown);
  PmNode.fromJSON(schema, json).check();
  return manager.serialize(json).trim();
}

describe("the wiki editor's Markdown", () => {
  it("reads and writes GitHub alerts as callouts", () => {
    const source = "> [!WARNING]\n> Vor jeder Desinfektion Schmuck ablegen.";
    const json = manager.parse(source);
    expect(json.content?.[0]).toMatchObject({ type: "callout", attrs: { kind: "warning" } });
    expect(roundTrip(source)).toBe(source);
  });

  it("keeps several paragraphs and formatting inside a callout, and plain quotes as quotes", () => {
    const source = "> [!NOTE]\n> Erster **Absatz**.\n>\n> Zweiter Absatz.\n\n> Ein Zitat.";
    const out = roundTrip(source);
    expect(out).toContain("> [!NOTE]\n> Erster **Absatz**.\n>\n> Zweiter Absatz.");
    expect(manager.parse(source).content?.[1]?.type).toBe("blockquote");
  });

  it("keeps headings, lists, tables, links and images of a page", () => {
    const source = [
      "## Wann?",
      "",
      "- vor dem Kontakt",
      "- nach dem Kontakt",
      "",
      "1. eins",
      "2. zwei",
      "",
      "| Was | Wie lange |",
      "| --- | --- |",
      "| Hände | 30 s |",
      "",
      "Siehe [Hygieneplan](/wiki/hygiene/plan) und [RKI](https://www.rki.de).",
      "",
      "![Händedesinfektion](/api/static/wiki/12)",
    ].join("\n");
    const out = roundTrip(source);
    expect(out).toContain("## Wann?");
    expect(out).toMatch(/- vor dem Kontakt\n- nach dem Kontakt/);
    expect(out).toMatch(/1\. eins\n2\. zwei/);
    expect(out).toMatch(/\| Was\s*\| Wie lange\s*\|/);
    expect(out).toMatch(/\| Hände\s*\| 30 s\s*\|/);
    expect(out).toContain("[Hygieneplan](/wiki/hygiene/plan)");
    expect(out).toContain("[RKI](https://www.rki.de)");
    expect(out).toContain("![Händedesinfektion](/api/static/wiki/12)");
  });

  it("turns a level-one heading into level two (the title is the page's level one)", () => {
    expect(demoteTopHeadings("# Titel\n\n```\n# Kommentar\n```\n## Zwei")).toBe(
      "## Titel\n\n```\n# Kommentar\n```\n## Zwei",
    );
  });
});
