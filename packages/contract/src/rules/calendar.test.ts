import { describe, expect, it } from "vitest";
import { addMonths, calendarDay, dayNumber, isoDay, isTimeZone, startOfDayAfter, zonedTime } from "./calendar";

// These cases are run under far-apart process time zones too (scripts/test-time-zones.mjs):
// nothing here may depend on the process's TZ.
describe("calendar days in the configured zone (ARCHITECTURE decision 16)", () => {
  it("knows IANA zones and refuses unknown names", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Pacific/Kiritimati")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("reads the calendar day of an instant in the zone, around Berlin's midnight", () => {
    const before = new Date("2026-11-22T22:59:59Z"); // 23:59:59 in Berlin (CET, +1)
    const after = new Date("2026-11-22T23:00:00Z"); // 00:00 on the 23rd in Berlin
    expect(isoDay(before, "Europe/Berlin")).toBe("2026-11-22");
    expect(isoDay(after, "Europe/Berlin")).toBe("2026-11-23");
    expect(isoDay(after, "America/Los_Angeles")).toBe("2026-11-22");
    expect(isoDay(after, "Pacific/Kiritimati")).toBe("2026-11-23");
    expect(calendarDay(after, "Europe/Berlin")).toEqual({ year: 2026, month: 11, day: 23 });
    expect(dayNumber(after, "Europe/Berlin") - dayNumber(before, "Europe/Berlin")).toBe(1);
  });

  it("turns wall-clock times into instants, daylight saving changes included", () => {
    expect(zonedTime("Europe/Berlin", 2026, 11, 22, 6).toISOString()).toBe("2026-11-22T05:00:00.000Z");
    expect(zonedTime("Europe/Berlin", 2026, 7, 1, 6).toISOString()).toBe("2026-07-01T04:00:00.000Z");
    // 29.03.2026: clocks jump from 02:00 to 03:00; 02:30 does not exist and lands at 03:30.
    expect(zonedTime("Europe/Berlin", 2026, 3, 29, 1, 30).toISOString()).toBe("2026-03-29T00:30:00.000Z");
    expect(zonedTime("Europe/Berlin", 2026, 3, 29, 2, 30).toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(zonedTime("Europe/Berlin", 2026, 3, 29, 3, 0).toISOString()).toBe("2026-03-29T01:00:00.000Z");
    // 25.10.2026: 02:00–03:00 happens twice; the first one is meant.
    expect(zonedTime("Europe/Berlin", 2026, 10, 25, 2, 30).toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(zonedTime("Europe/Berlin", 2026, 10, 25, 3, 0).toISOString()).toBe("2026-10-25T02:00:00.000Z");
    // Days roll over like new Date(y, m, d).
    expect(isoDay(zonedTime("Europe/Berlin", 2026, 12, 32), "Europe/Berlin")).toBe("2027-01-01");
    expect(isoDay(zonedTime("Europe/Berlin", 2026, 3, 0), "Europe/Berlin")).toBe("2026-02-28");
  });

  it("finds the start of a day, also where midnight itself is skipped", () => {
    // Santiago de Chile moves from 00:00 to 01:00 on 06.09.2026: that day begins at 01:00.
    const start = startOfDayAfter(zonedTime("America/Santiago", 2026, 9, 5, 12), 1, "America/Santiago");
    expect(isoDay(start, "America/Santiago")).toBe("2026-09-06");
    expect(isoDay(start.getTime() - 1, "America/Santiago")).toBe("2026-09-05");
    // Days of 23 and 25 hours in Berlin.
    const spring = startOfDayAfter(zonedTime("Europe/Berlin", 2026, 3, 29, 12), 1, "Europe/Berlin");
    expect(spring.getTime() - startOfDayAfter(spring, 0, "Europe/Berlin").getTime()).toBe(0);
    expect(spring.toISOString()).toBe("2026-03-29T22:00:00.000Z");
    expect(startOfDayAfter(zonedTime("Europe/Berlin", 2026, 10, 25, 12), 0, "Europe/Berlin").toISOString()).toBe(
      "2026-10-24T22:00:00.000Z",
    );
  });

  it("adds calendar months in the zone, keeping the wall-clock time and the month's last day", () => {
    const zone = "Europe/Berlin";
    // 00:30 on 31 March in Berlin is still 30 March in UTC: one month later is 30 April, 00:30.
    const lateMarch = zonedTime(zone, 2026, 3, 31, 0, 30);
    expect(addMonths(lateMarch, 1, zone).toISOString()).toBe(zonedTime(zone, 2026, 4, 30, 0, 30).toISOString());
    expect(isoDay(addMonths(zonedTime(zone, 2027, 1, 31, 18), 1, zone), zone)).toBe("2027-02-28");
    expect(isoDay(addMonths(zonedTime(zone, 2028, 1, 31, 18), 1, zone), zone)).toBe("2028-02-29");
    // Across the change to summer time: the same wall-clock time, one hour less in between.
    const winter = zonedTime(zone, 2026, 3, 15, 9, 0);
    expect(addMonths(winter, 12, zone).toISOString()).toBe("2027-03-15T08:00:00.000Z");
    expect(addMonths(winter, 1, zone).toISOString()).toBe("2026-04-15T07:00:00.000Z");
    const withMs = new Date(winter.getTime() + 123);
    expect(addMonths(withMs, 1, zone).getTime() % 1000).toBe(123);
  });
});

describe("time of day", () => {
  it("reads the wall clock of the zone, 24-hour, across a daylight-saving change", async () => {
    const { formatTime } = await import("./text");
    const zone = "Europe/Berlin";
    expect(formatTime(new Date("2027-03-26T09:00:00Z"), zone)).toBe("10:00");
    expect(formatTime(new Date("2027-03-29T08:00:00Z"), zone)).toBe("10:00");
    expect(formatTime("2027-01-01T22:59:00Z", zone)).toBe("23:59");
    expect(formatTime("2027-01-01T23:00:00Z", zone)).toBe("00:00");
    expect(formatTime("2027-01-01T23:00:00Z", "UTC")).toBe("23:00");
  });
});
