import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { zonedTime } from "./calendar";
import { daysUntil, dueNow, expiryColour } from "./expiry";
import { generatePassword, isValidPassword, passwordProblems } from "./password";
import { isTokenUsable, refreshDelayMs, secondsLeft } from "./session";
import { formatDate, formatIsoDay, formatShortDate, truncate } from "./text";

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
  const zone = "Europe/Berlin";
  /** A wall-clock time in Berlin, whatever the process's time zone. */
  const berlin = (y: number, m: number, d: number, h = 0, min = 0) => zonedTime(zone, y, m, d, h, min);
  const today = berlin(2026, 11, 22, 15, 30);
  const inDays = (d: number) => berlin(2026, 11, 22 + d, 9, 0);
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
    expect(expiryColour(inDays(days), today, zone)).toBe(colour);
  });
  it("no expiry is red", () => {
    expect(expiryColour(null, today, zone)).toBe("red");
    expect(expiryColour("not a date", today, zone)).toBe("red");
  });
  it("counts calendar days, not 24-hour periods", () => {
    expect(expiryColour(berlin(2026, 11, 23, 0, 5), berlin(2026, 11, 22, 23, 55), zone)).toBe("orange");
    expect(daysUntil(berlin(2026, 11, 23, 0, 5), berlin(2026, 11, 22, 23, 55), zone)).toBe(1);
  });
  it("counts the days of the configured zone: the same instants are a day apart in Berlin, none in New York", () => {
    const lateEvening = new Date("2026-11-22T22:55:00Z"); // 23:55 in Berlin, 17:55 in New York
    const justAfter = new Date("2026-11-22T23:05:00Z"); // 00:05 the next day in Berlin
    expect(daysUntil(justAfter, lateEvening, zone)).toBe(1);
    expect(daysUntil(justAfter, lateEvening, "America/New_York")).toBe(0);
    expect(expiryColour(justAfter, lateEvening, zone)).toBe("orange");
    expect(expiryColour(justAfter, lateEvening, "America/New_York")).toBe("red");
  });
  it("agrees with daysUntil hour by hour across a year, daylight saving changes included", () => {
    const byDays = (days: number) => (days <= 0 ? "red" : days <= 7 ? "orange" : days <= 30 ? "yellow" : "green");
    for (const today of [berlin(2026, 3, 20, 23, 30), berlin(2026, 10, 20, 0, 0), berlin(2026, 12, 31, 12)]) {
      for (let h = -48; h < 24 * 400; h++) {
        const expiry = new Date(today.getTime() + h * 3_600_000 + 59_000);
        expect(expiryColour(expiry, today, zone)).toBe(byDays(daysUntil(expiry, today, zone)));
      }
    }
  });
});

describe("due now (the start page's card)", () => {
  const zone = "Europe/Berlin";
  const today = zonedTime(zone, 2026, 11, 22, 15, 30);
  const expires = (d: number) => ({ expires_at: zonedTime(zone, 2026, 11, 22 + d, 9, 0).toISOString() });
  const training = (
    id: number,
    name: string,
    certificate: { expires_at: string } | null,
    passive = false,
    next: number | null = 100 + id,
  ) => ({ id, name, passive, certificate, next_questionnaire_id: next });
  it("takes red and orange, the lapsed first, then the missing, then the soonest to expire; never passive ones", () => {
    const list = [
      training(1, "Brandschutz", expires(40)), // green
      training(2, "Hygiene", expires(5)), // orange
      training(3, "Datenschutz", null), // red: none
      training(4, "Erste Hilfe", expires(-10)), // red: lapsed 10 days ago
      training(5, "Medikamente", expires(2)), // orange, sooner
      training(6, "Lagerung", expires(-1)), // red: lapsed yesterday
      training(7, "Aufzug", null, true), // passive: in person
      training(8, "Sturz", expires(20)), // yellow
    ];
    expect(dueNow(list, today, zone).map((t) => t.id)).toEqual([4, 6, 3]);
    expect(dueNow(list, today, zone, 10).map((t) => t.id)).toEqual([4, 6, 3, 5, 2]);
  });
  it("orders missing certificates by name and is empty when all is well", () => {
    expect(
      dueNow([training(1, "Zahnpflege", null), training(2, "Arbeitsschutz", null)], today, zone).map((t) => t.id),
    ).toEqual([2, 1]);
    expect(dueNow([training(1, "Brandschutz", expires(40))], today, zone)).toEqual([]);
  });
  it("leaves out what no questionnaire of the learner's makes good", () => {
    const list = [
      training(1, "Alarmplan", null, false, null), // red, but nothing to learn here (another facility's own)
      training(2, "Brandschutz", null), // red, and learnable
    ];
    expect(dueNow(list, today, zone).map((t) => t.id)).toEqual([2]);
  });
});

describe("truncation and dates (spec §5, §9)", () => {
  it("cuts at 40 to 37 + '...' and at 30 to 27 + '...'", () => {
    expect(truncate("a".repeat(40), 40)).toBe("a".repeat(40));
    expect(truncate("a".repeat(41), 40)).toBe(`${"a".repeat(37)}...`);
    expect(truncate("b".repeat(31), 30)).toBe(`${"b".repeat(27)}...`);
    expect(truncate("Händehygiene und Infektionsschutz in der Pflege", 30)).toBe("Händehygiene und Infektions...");
  });
  it("formats DD.MM.yyyy and DD.MM.YY in the configured zone", () => {
    expect(formatDate(zonedTime("Europe/Berlin", 2027, 1, 5), "Europe/Berlin")).toBe("05.01.2027");
    expect(formatShortDate(zonedTime("Europe/Berlin", 2027, 1, 5), "Europe/Berlin")).toBe("05.01.27");
    // Berlin's midnight is still the evening before in Los Angeles.
    expect(formatDate("2027-01-04T23:30:00Z", "Europe/Berlin")).toBe("05.01.2027");
    expect(formatDate("2027-01-04T23:30:00Z", "America/Los_Angeles")).toBe("04.01.2027");
    expect(formatIsoDay("2031-03-15")).toBe("15.03.2031");
    expect(formatIsoDay("15.03.2031")).toBeUndefined();
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
  it("lets a role without a facility replace the facility's roles, and the other way round (never a conflict)", () => {
    expect(toggleRole(["employee"], "contentmanager")).toEqual(["contentmanager"]);
    expect(toggleRole(["administrator", "employee"], "superchris")).toEqual(["superchris"]);
    expect(toggleRole(["contentmanager"], "superchris")).toEqual(["superchris", "contentmanager"]);
    expect(toggleRole(["contentmanager"], "supervisor")).toEqual(["supervisor"]);
    expect(toggleRole(["contentmanager"], "contentmanager")).toEqual(["employee"]);
    for (const from of [["employee"], ["contentmanager"], ["administrator", "employee"]] as const) {
      for (const role of ["superchris", "contentmanager", "administrator", "supervisor", "employee"] as const) {
        expect(facilityRequirement(toggleRole(from, role))).not.toBe("conflict");
      }
    }
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
