import { describe, expect, it } from "vitest";
import { contentLanguageTag, isRightToLeft, parseContentLanguages } from "./translations";

describe("content languages", () => {
  it("reads CONTENT_LANGUAGES: codes trimmed and lowercased, German (the source) and repeats left out", () => {
    expect(parseContentLanguages("en, TR,pl,de,en")).toEqual(["en", "tr", "pl"]);
    expect(parseContentLanguages("")).toEqual([]);
    expect(parseContentLanguages("de")).toEqual([]);
  });

  it("refuses what is not a language code", () => {
    for (const bad of ["english", "e1", "pt-BR", "t"]) expect(() => parseContentLanguages(bad), bad).toThrow();
  });

  it("tags br as the interface means it (Brazilian Portuguese), every other code as it is", () => {
    expect(contentLanguageTag("br")).toBe("pt-BR");
    expect(contentLanguageTag("tr")).toBe("tr");
  });

  it("knows the right-to-left languages", () => {
    expect(isRightToLeft("ar")).toBe(true);
    expect(isRightToLeft("tr")).toBe(false);
  });
});
