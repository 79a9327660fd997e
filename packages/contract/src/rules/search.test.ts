import { describe, expect, it } from "vitest";
import { searchKey } from "./search";

const finds = (typed: string, name: string) => searchKey(name).includes(searchKey(typed));

describe("searchKey", () => {
  it.each([
    // German
    ["mueller", "Müller"],
    ["muller", "Müller"],
    ["Müller", "Mueller"],
    ["strasse", "Straße"],
    ["GROSS", "Groß"],
    ["schoen", "Schön"],
    ["baer", "Bär"],
    // Turkish
    ["ozturk", "Öztürk"],
    ["sahin", "Şahin"],
    ["cagri", "Çağrı"],
    ["ilker", "İlker"],
    ["yilmaz", "Yılmaz"],
    // Polish
    ["lukasz", "Łukasz"],
    ["wrobel", "Wróbel"],
    ["zolkiewski", "Żółkiewski"],
    ["slazak", "Ślązak"],
    // French
    ["lefevre", "Lefèvre"],
    ["francois", "François"],
    ["zoe", "Zoë"],
    ["oeuvre", "Œuvre"],
    // Others staff are named
    ["orsted", "Ørsted"],
    ["nguyen", "Nguyễn"],
    ["dvorak", "Dvořák"],
  ])("'%s' finds %s", (typed, name) => {
    expect(finds(typed, name)).toBe(true);
  });

  it("keeps different names apart", () => {
    expect(finds("muller", "Miller")).toBe(false);
    expect(finds("ozturk", "Ostertag")).toBe(false);
    expect(finds("lefevre", "Lefort")).toBe(false);
  });

  it("is the same in any case and with full-width letters", () => {
    expect(searchKey("ÖZTÜRK")).toBe(searchKey("öztürk"));
    expect(searchKey("Ｍüller")).toBe("muller");
  });
});
