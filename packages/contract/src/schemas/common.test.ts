import { describe, expect, it } from "vitest";
import { BodyId, Id } from "./common";

describe("ids", () => {
  it("reads an id from a path or query string only as its decimal digits", () => {
    expect(Id.parse("5")).toBe(5);
    expect(Id.parse("2147483647")).toBe(2_147_483_647);
    expect(Id.parse(70)).toBe(70);
    // What a number conversion would read as an id: each its own malformed id, refused.
    for (const alias of ["0x5", "0b101", "0o5", "5e0", "5.0", "+5", "0005", " 5", "5 ", "", "-5", "0"]) {
      expect(Id.safeParse(alias).success, JSON.stringify(alias)).toBe(false);
    }
    for (const other of ["2147483648", "99999999999", true, null, [5], ["5"], 5.5, 0, -1]) {
      expect(Id.safeParse(other).success, JSON.stringify(other)).toBe(false);
    }
  });

  it("takes an id in a JSON body only as a number", () => {
    expect(BodyId.parse(5)).toBe(5);
    for (const other of ["5", true, 2_147_483_648, 0]) expect(BodyId.safeParse(other).success).toBe(false);
  });
});
