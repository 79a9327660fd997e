import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { daysUntil, expiryColour } from "./expiry";
import { generatePassword, isValidPassword, passwordProblems } from "./password";
import { isTokenUsable, refreshDelayMs, secondsLeft } from "./session";
import { formatDate, formatShortDate, truncate } from "./text";

describe("password rule (spec §5)", () => {
  it.each(["Demo-1234!", "Abcdefg1@", "aB3$aaaa", "Zz9#Zz9#", "Aa1+aaaa", "Aa1-aaaa"])("accepts %s", (pw) => {
    expect(passwordProblems(pw)).toEqual([]);
  });
  it.each([
    ["Ab1!", ["length"]],
    ["abcdefg1!", ["uppercase"]],
    ["ABCDEFG1!", ["lowercase"]],
    ["Abcdefgh!", ["digit"]],
    ["Abcdefgh1", ["special"]],
    ["Abcdefg1!ä", ["characters"]],
    ["Abcd efg1!", ["characters"]],
    ["", ["length", "lowercase", "uppercase", "digit", "special"]],
  ])("refuses %s", (pw, problems) => {
    expect(passwordProblems(pw)).toEqual(problems);
  });
  it("generates 8-character passwords that always pass", () => {
    for (let i = 0; i < 500; i++) {
      const pw = generatePassword((n) => crypto.randomInt(n));
      expect(pw).toHaveLength(8);
      expect(pw).toMatch(/^[A-Za-z0-9@$!%*?&]+$/);
      expect(isValidPassword(pw)).toBe(true);
    }
  });
});

describe("expiry colour (ARCHITECTURE decision 2)", () => {
  const today = new Date(2026, 10, 22, 15, 30);
  const inDays = (d: number) => new Date(2026, 10, 22 + d, 9, 0);
  it.each([
    [-5, "red"],
    [0, "red"],
    [1, "orange"],
    [7, "orange"],
    [8, "yellow"],
    [30, "yellow"],
    [31, "green"],
    [400, "green"],
  ] as const)("%i days → %s", (days, colour) => {
    expect(expiryColour(inDays(days), today)).toBe(colour);
  });
  it("no expiry is red", () => {
    expect(expiryColour(null, today)).toBe("red");
    expect(expiryColour("not a date", today)).toBe("red");
  });
  it("counts calendar days, not 24-hour periods", () => {
    expect(expiryColour(new Date(2026, 10, 23, 0, 5), new Date(2026, 10, 22, 23, 55))).toBe("orange");
  });
  it("agrees with daysUntil hour by hour across a year, daylight saving changes included", () => {
    const byDays = (days: number) => (days <= 0 ? "red" : days <= 7 ? "orange" : days <= 30 ? "yellow" : "green");
    for (const today of [new Date(2026, 2, 20, 23, 30), new Date(2026, 9, 20, 0, 0), new Date(2026, 11, 31, 12)]) {
      for (let h = -48; h < 24 * 400; h++) {
        const expiry = new Date(today.getTime() + h * 3_600_000 + 59_000);
        expect(expiryColour(expiry, today)).toBe(byDays(daysUntil(expiry, today)));
      }
    }
  });
});

describe("truncation and dates (spec §5, §9)", () => {
  it("cuts at 40 to 37 + '...' and at 30 to 27 + '...'", () => {
    expect(truncate("a".repeat(40), 40)).toBe("a".repeat(40));
    expect(truncate("a".repeat(41), 40)).toBe(`${"a".repeat(37)}...`);
    expect(truncate("b".repeat(31), 30)).toBe(`${"b".repeat(27)}...`);
    expect(truncate("Händehygiene und Infektionsschutz in der Pflege", 30)).toBe("Händehygiene und Infektions...");
  });
  it("formats DD.MM.yyyy and DD.MM.YY", () => {
    expect(formatDate(new Date(2027, 0, 5))).toBe("05.01.2027");
    expect(formatShortDate(new Date(2027, 0, 5))).toBe("05.01.27");
  });
});

describe("session timing (spec §9)", () => {
  const now = 1_800_000_000_000;
  const exp = now / 1000 + 300;
  it("counts the lifetime as expiry minus 20 s", () => {
    expect(secondsLeft(exp, now)).toBe(280);
  });
  it("refreshes when fewer than 10 s remain on that timer", () => {
    expect(refreshDelayMs(exp, now)).toBe(270_000);
    expect(refreshDelayMs(exp, now + 275_000)).toBe(0);
  });
  it("accepts a stored token only while more than 1 s remains", () => {
    expect(isTokenUsable(exp, now)).toBe(true);
    expect(isTokenUsable(exp, (exp - 1) * 1000)).toBe(false);
    expect(isTokenUsable(exp, (exp + 10) * 1000)).toBe(false);
  });
});

describe("role rules (spec §4–§6)", async () => {
  const { facilityRequirement, grantableRoles, normaliseRoles, toggleRole } = await import("../roles");
  it("grants by rank", () => {
    expect(grantableRoles(["superchris"])).toContain("superchris");
    expect(grantableRoles(["contentmanager"])).not.toContain("superchris");
    expect(grantableRoles(["contentmanager"])).toContain("contentmanager");
    expect(grantableRoles(["administrator"])).toEqual(["administrator", "supervisor", "employee"]);
    expect(grantableRoles(["supervisor"])).toEqual([]);
    expect(grantableRoles(["employee"])).toEqual([]);
  });
  it("defaults empty roles to employee", () => {
    expect(normaliseRoles([])).toEqual(["employee"]);
    expect(normaliseRoles(["employee", "supervisor", "employee"])).toEqual(["supervisor", "employee"]);
  });
  it("knows where a facility is needed", () => {
    expect(facilityRequirement(["employee"])).toBe("required");
    expect(facilityRequirement(["contentmanager"])).toBe("forbidden");
    expect(facilityRequirement(["superchris", "administrator"])).toBe("conflict");
  });
  it("keeps employee when toggling other roles, and falls back to it", () => {
    expect(toggleRole(["employee"], "supervisor")).toEqual(["supervisor", "employee"]);
    expect(toggleRole(["supervisor", "employee"], "supervisor")).toEqual(["employee"]);
    expect(toggleRole(["supervisor"], "supervisor")).toEqual(["employee"]);
  });
});

describe("overview grouping", () => {
  it("groups by colour, most urgent first, keeping empty groups", async () => {
    const { groupByColour, validShare } = await import("./overview");
    const groups = groupByColour(["a", "b", "c"], (s) => (s === "a" ? "green" : "red"));
    expect(groups.map((g) => [g.colour, g.items])).toEqual([
      ["red", ["b", "c"]],
      ["orange", []],
      ["yellow", []],
      ["green", ["a"]],
    ]);
    expect(validShare(["red", "orange", "yellow", "green"])).toBe(75);
    expect(validShare([])).toBe(0);
  });
});
