/**
 * Calendar days in one configured time zone (ARCHITECTURE decision 16: TIME_ZONE, default
 * Europe/Berlin), never in the time zone of the process or the machine. Server and web count
 * days with these helpers, so a certificate's colour, a job's day and an exported date agree
 * wherever the code runs.
 */

export const DEFAULT_TIME_ZONE = "Europe/Berlin";

const DAY_MS = 86_400_000;

/** A day of the calendar: month 1–12, day 1–31. */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

/** True for a time-zone name this runtime knows (IANA names such as Europe/Berlin, and UTC). */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() === "") return false;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

interface WallClock extends CalendarDay {
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of an instant in `zone`. */
function wallClock(ms: number, zone: string): WallClock {
  const out: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterOf(zone).formatToParts(ms)) {
    if (part.type in out) out[part.type as keyof WallClock] = Number(part.value);
  }
  return out;
}

/** How far `zone` is ahead of UTC at the instant `ms`, in milliseconds (asked of Intl). */
function exactOffsetAt(ms: number, zone: string): number {
  const w = wallClock(ms, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - (ms - (((ms % 1000) + 1000) % 1000));
}

const QUARTER_HOUR_MS = 900_000;
const MAX_CACHED = 100_000;
const offsetCache = new Map<string, { days: Map<number, number>; quarters: Map<number, number> }>();

/**
 * How far `zone` is ahead of UTC at `ms`. Intl takes microseconds a call, too slow for the
 * thousands of dates of an overview, so answers are kept: per UTC day when the offset is the
 * same at both of its ends (nearly every day), else per quarter hour (offsets change only at
 * quarter hours of UTC, in every zone since the 1970s) when that quarter's ends agree, else
 * Intl is asked each time (NaN marks a day with a change).
 */
function offsetAt(ms: number, zone: string): number {
  if (!Number.isFinite(ms)) return 0; // an invalid date stays invalid (NaN parts), as with Date
  let cache = offsetCache.get(zone);
  if (!cache) {
    cache = { days: new Map(), quarters: new Map() };
    offsetCache.set(zone, cache);
  }
  const { days, quarters } = cache;
  if (days.size + quarters.size >= MAX_CACHED) {
    days.clear();
    quarters.clear();
  }
  const day = Math.floor(ms / DAY_MS);
  const ofDay = days.get(day);
  if (ofDay !== undefined && !Number.isNaN(ofDay)) return ofDay;
  if (ofDay === undefined) {
    const start = exactOffsetAt(day * DAY_MS, zone);
    const even = exactOffsetAt((day + 1) * DAY_MS - 1000, zone) === start;
    days.set(day, even ? start : Number.NaN);
    if (even) return start;
  }
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  const known = quarters.get(quarter);
  if (known !== undefined) return known;
  const start = exactOffsetAt(quarter * QUARTER_HOUR_MS, zone);
  if (exactOffsetAt((quarter + 1) * QUARTER_HOUR_MS - 1000, zone) !== start) return exactOffsetAt(ms, zone);
  quarters.set(quarter, start);
  return start;
}

/** The calendar day an instant falls on in `zone`. */
export function calendarDay(date: Date | number, zone: string): CalendarDay {
  const ms = typeof date === "number" ? date : date.getTime();
  const shifted = new Date(ms + offsetAt(ms, zone));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** The wall-clock hour and minute of an instant in `zone`. */
export function timeOfDay(date: Date | number, zone: string): { hour: number; minute: number } {
  const w = wallClock(typeof date === "number" ? date : date.getTime(), zone);
  return { hour: w.hour, minute: w.minute };
}

/** The calendar day as a count of days since 1970-01-01: differences are whole days. */
export function dayNumber(date: Date | number, zone: string): number {
  const ms = typeof date === "number" ? date : date.getTime();
  return Math.floor((ms + offsetAt(ms, zone)) / DAY_MS);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** YYYY-MM-DD of the calendar day in `zone`. */
export function isoDay(date: Date | number, zone: string): string {
  const { year, month, day } = calendarDay(date, zone);
  return `${String(year).padStart(4, "0")}-${pad(month)}-${pad(day)}`;
}

/**
 * The instant the wall clock of `zone` shows the given time. Out-of-range parts roll over
 * (day 32 is the next month's first) as with `new Date(y, m, d)`. A time skipped by a
 * daylight-saving change lands after the gap, a repeated one on its first occurrence.
 */
export function zonedTime(
  zone: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // The zone's offsets a day before and after (at most one change lies between them here).
  const offsets = new Set([offsetAt(wall - DAY_MS, zone), offsetAt(wall, zone), offsetAt(wall + DAY_MS, zone)]);
  const exact = [...offsets].map((o) => wall - o).filter((t) => t + offsetAt(t, zone) === wall);
  if (exact.length > 0) return new Date(Math.min(...exact));
  // In a gap the wall-clock time does not exist: read with the offset before the change, it
  // lands as far after the gap as it lay inside it (02:30 on a spring-forward day is 03:30).
  return new Date(wall - offsetAt(wall - DAY_MS, zone));
}

/** The first instant of a calendar day in `zone` (days may roll over, as in zonedTime). */
export function startOfDay(zone: string, year: number, month: number, day: number): Date {
  return zonedTime(zone, year, month, day);
}

/** The first instant of the calendar day `days` days after the one `date` falls on in `zone`. */
export function startOfDayAfter(date: Date | number, days: number, zone: string): Date {
  const d = calendarDay(date, zone);
  return startOfDay(zone, d.year, d.month, d.day + days);
}

/**
 * `months` calendar months after `date`, at the same wall-clock time in `zone`; the 31st of a
 * shorter month becomes its last day (31.01. + 1 month = 28.02. or 29.02.).
 */
export function addMonths(date: Date, months: number, zone: string): Date {
  const local = new Date(date.getTime() + offsetAt(date.getTime(), zone));
  const w = {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
  const target = new Date(Date.UTC(w.year, w.month - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  const at = zonedTime(
    zone,
    target.getUTCFullYear(),
    target.getUTCMonth() + 1,
    Math.min(w.day, last),
    w.hour,
    w.minute,
    w.second,
  );
  return new Date(at.getTime() + (((date.getTime() % 1000) + 1000) % 1000));
}
