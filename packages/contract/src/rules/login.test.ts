import { describe, expect, it } from "vitest";
import { loginKey } from "./login";

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
