import { WIKI_MARK_END as E, WIKI_MARK_START as S } from "@carecampus/contract";
import { describe, expect, it } from "vitest";
import { slugify, wikiPath } from "./scope";
import { snippetParts } from "./snippet";

describe("wiki search snippets", () => {
  it("splits at the markers into plain and marked text", () => {
    expect(snippetParts(`Vor der ${S}Händedesinfektion${E} Schmuck ${S}ablegen${E}.`)).toEqual([
      { text: "Vor der ", mark: false },
      { text: "Händedesinfektion", mark: true },
      { text: " Schmuck ", mark: false },
      { text: "ablegen", mark: true },
      { text: ".", mark: false },
    ]);
  });

  it("keeps markup as text and survives a missing marker", () => {
    expect(snippetParts(`<b>${S}x`)).toEqual([
      { text: "<b>", mark: false },
      { text: "x", mark: true },
    ]);
    expect(snippetParts(`a${E}b`)).toEqual([
      { text: "a", mark: false },
      { text: "b", mark: false },
    ]);
    expect(snippetParts("")).toEqual([]);
  });
});

describe("wiki addresses", () => {
  it("makes slugs the server accepts", () => {
    expect(slugify("Händehygiene & Schutz")).toBe("haendehygiene-schutz");
    expect(slugify("  Größe: Ça va?  ")).toBe("groesse-ca-va");
    expect(slugify("x".repeat(80))).toHaveLength(63);
  });

  it("keeps the facility in view on every link", () => {
    expect(wikiPath(null)).toBe("/wiki");
    expect(wikiPath(4, "hygiene", "haendehygiene")).toBe("/wiki/hygiene/haendehygiene?facility=4");
    expect(wikiPath(null, "hygiene", "x", { draft: "true" })).toBe("/wiki/hygiene/x?draft=true");
  });
});
