import { describe, expect, it } from "vitest";
import { Login } from "../schemas/auth";
import { hasInvisibleCharacters, LOGIN_INVISIBLE_MESSAGE, loginKey, loginProblem, revealInvisible } from "./login";

describe("loginKey", () => {
  it("folds case without a locale: 'İ' to 'i̇' (apart from 'i'), 'ẞ' to 'ß' (apart from 'ss')", () => {
    expect(loginKey("İlker")).toBe("i̇lker");
    expect(loginKey("İLKER")).toBe(loginKey("İlker"));
    expect(loginKey("ILKER")).not.toBe(loginKey("İlker"));
    expect(loginKey("STRAẞE")).toBe("straße");
    expect(loginKey("STRASSE")).not.toBe(loginKey("Straße"));
  });

  it("takes compatibility forms (full-width letters, ligatures) and surrounding space as the plain login", () => {
    expect(loginKey(" Ｍａｘ ")).toBe("max");
    expect(loginKey("ﬁne")).toBe("fine");
    expect(loginKey("Mu\u0308ller")).toBe(loginKey("Müller"));
  });
});

describe("loginProblem: no invisible or formatting characters (issue 27)", () => {
  const invisible = {
    "zero-width space U+200B": "\u200B",
    "zero-width joiner U+200D": "\u200D",
    "zero-width non-joiner U+200C": "\u200C",
    "byte order mark U+FEFF": "\uFEFF",
    "soft hyphen U+00AD": "\u00AD",
    "word joiner U+2060": "\u2060",
    "left-to-right mark U+200E": "\u200E",
    "right-to-left mark U+200F": "\u200F",
    "right-to-left override U+202E": "\u202E",
    "variation selector 16 U+FE0F": "\uFE0F",
    "variation selector 17 U+E0100": "\u{E0100}",
    "combining grapheme joiner U+034F": "\u034F",
    "Hangul filler U+3164": "\u3164",
    "tag character U+E0041": "\u{E0041}",
    "control character U+0007": "\u0007",
  };

  it.each(Object.entries(invisible))("refuses a login with a %s, wherever it stands", (_name, c) => {
    for (const login of [`employee${c}`, `${c}employee`, `empl${c}oyee`]) {
      expect(loginProblem(login), JSON.stringify(login)).toBe("invisible");
      expect(hasInvisibleCharacters(login)).toBe(true);
      const parsed = Login.safeParse(login);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(LOGIN_INVISIBLE_MESSAGE);
    }
  });

  it("still takes umlauts, ß, accents, other scripts and the punctuation logins use", () => {
    for (const login of [
      "Jürgen.Müller",
      "straße",
      "ẞTRASSE",
      "José-María",
      "françois_l",
      "İlker",
      "Ørsted",
      "ζωή",
      "李雷",
      "a.b-c_d@haus",
    ]) {
      expect(loginProblem(login), login).toBeUndefined();
      expect(hasInvisibleCharacters(login)).toBe(false);
      expect(Login.safeParse(login).success, login).toBe(true);
    }
    // Decomposed umlauts (combining marks) are visible and fine too.
    expect(loginProblem("Mu\u0308ller")).toBeUndefined();
  });

  it("names the other rules: empty and spaces", () => {
    expect(loginProblem("  ")).toBe("required");
    expect(loginProblem("max mustermann")).toBe("spaces");
    expect(loginProblem("max\u00A0mustermann")).toBe("spaces");
  });

  it("shows where the invisible characters are", () => {
    expect(revealInvisible("employee\u200B")).toBe("employee<U+200B>");
    expect(revealInvisible("\u202Eabc\u{E0100}")).toBe("<U+202E>abc<U+E0100>");
    expect(revealInvisible("Müller")).toBe("Müller");
  });
});
