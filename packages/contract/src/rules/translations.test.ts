import { describe, expect, it } from "vitest";
import { isRightToLeft, parseContentLanguages } from "./translations";

describe("content languages", () => {
  it("reads CONTENT_LANGUAGES: codes trimmed and lowercased, German (the source) and repeats left out", () => {
    expect(parseContentLanguages("en, TR,pl,de,en")).toEqual(["en", "tr", "pl"]);
    expect(parseContentLanguages("")).toEqual([]);
    expect(parseContentLanguages("de")).toEqual([]);
  });

  it("refuses what is not a language code", () => {
    for (const bad of ["english", "e1", "pt-BR", "t"]) expect(() => parseContentLanguages(bad), bad).toThrow();
  });

  it("knows the right-to-left languages", () => {
    expect(isRightToLeft("ar")).toBe(true);
    expect(isRightToLeft("tr")).toBe(false);
  });
});
