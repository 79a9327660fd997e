import { describe, expect, it } from "vitest";
import {
  CODE_ALPHABET,
  formatVerificationCode,
  newVerificationCode,
  normaliseVerificationCode,
  verificationCodeShape,
} from "./verification-code";

describe("verification codes", () => {
  it("are 16 random characters of Crockford's base32 (80 bits) and a check character, printed in groups", () => {
    const codes = new Set(Array.from({ length: 500 }, () => newVerificationCode()));
    expect(codes.size).toBe(500);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{17}$/);
      expect(verificationCodeShape(code)).toBe("current");
      expect(formatVerificationCode(code)).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){4}[0-9A-HJKMNP-TV-Z]$/);
    }
    // Each character of the alphabet turns up in each place: 5 bits each, none left out.
    const first = new Set([...codes].map((c) => c[0]));
    expect(first.size).toBe(CODE_ALPHABET.length);
  });

  it("catch every single mistyped character by the check character", () => {
    const code = newVerificationCode();
    for (let i = 0; i < code.length; i++) {
      for (const c of CODE_ALPHABET) {
        if (c === code[i]) continue;
        const typo = code.slice(0, i) + c + code.slice(i + 1);
        expect(verificationCodeShape(typo), typo).toBe("mistyped");
      }
    }
  });

  it("are read as typed: spaces, dashes, lower case, I and L for 1, O for 0; old 12-character codes stay", () => {
    expect(normaliseVerificationCode(" abcd-efgh jkmn–pqrs-t ")).toBe("ABCDEFGHJKMNPQRST");
    expect(normaliseVerificationCode("0OoIiLl1")).toBe("00011111");
    expect(verificationCodeShape(normaliseVerificationCode("3fa2 b19c 0d7e"))).toBe("legacy");
    expect(formatVerificationCode("3FA2B19C0D7E")).toBe("3FA2B19C0D7E");
    expect(verificationCodeShape("erased-12")).toBe("malformed");
    expect(verificationCodeShape("ABC")).toBe("malformed");
  });
});
