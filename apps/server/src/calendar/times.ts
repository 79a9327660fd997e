import {
  dayNumber,
  ErrorCode,
  EVENT_MAX_DAYS,
  EVENT_RANGE_MAX_DAYS,
  ISO_DAY,
  isoDay,
  startOfDay,
  zonedTime,
} from "@carecampus/contract";
import { AppError } from "../errors";

const DAY_MS = 86_400_000;

/** A moment of the API: a calendar day (all-day events, ranges) or an instant. */
export type When = { kind: "day"; at: Date; day: string } | { kind: "time"; at: Date };

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function validDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Reads an ISO 8601 calendar day or date-time strictly. A date-time without an offset is a
 * wall-clock time of the configured zone (decision 16), never of the server process, which is
 * what Date.parse would make of it; anything else Date.parse accepts ("March 7") is refused.
 */
export function parseWhen(text: string, zone: string): When | null {
  const s = text.trim();
  if (ISO_DAY.test(s)) {
    const [year, month, day] = s.split("-").map(Number) as [number, number, number];
    return validDay(year, month, day) ? { kind: "day", at: startOfDay(zone, year, month, day), day: s } : null;
  }
  const m = DATE_TIME.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute, second = 0] = m.slice(1, 7).map((p) => Number(p ?? 0)) as number[];
  if (!validDay(year as number, month as number, day as number)) return null;
  if ((hour as number) > 23 || (minute as number) > 59 || (second as number) > 59) return null;
  const at = m[8]
    ? new Date(Date.parse(s))
    : zonedTime(zone, year as number, month as number, day as number, hour, minute, second);
  return Number.isNaN(at.getTime()) ? null : { kind: "time", at };
}

function bad(message: string): AppError {
  return new AppError(ErrorCode.validation, message);
}

function read(field: string, text: string, zone: string): When {
  const when = parseWhen(text, zone);
  if (!when) throw bad(`${field}: not a valid ISO date (YYYY-MM-DD) or date-time`);
  return when;
}

/**
 * An event's Start and End as stored: an all-day event from midnight of its first day to
 * midnight after its last (End exclusive) in the configured zone, a timed one as given.
 */
export function eventTimes(
  input: { Start: string; End: string; AllDay: boolean },
  zone: string,
): { startsAt: Date; endsAt: Date } {
  const start = read("Start", input.Start, zone);
  const end = read("End", input.End, zone);
  if (input.AllDay && (start.kind !== "day" || end.kind !== "day")) {
    throw bad("An all-day event has dates, not times: Start and End must be YYYY-MM-DD");
  }
  if (!input.AllDay && (start.kind !== "time" || end.kind !== "time")) {
    throw bad("An event with a time needs Start and End as date and time (ISO 8601), not dates only");
  }
  if (end.at.getTime() <= start.at.getTime()) {
    throw bad(
      input.AllDay
        ? "End must lie after Start (an all-day event ends on the day after its last day)"
        : "End must lie after Start",
    );
  }
  const days = input.AllDay ? dayNumber(end.at, zone) - dayNumber(start.at, zone) : 0;
  const tooLong = input.AllDay
    ? days > EVENT_MAX_DAYS
    : end.at.getTime() - start.at.getTime() > EVENT_MAX_DAYS * DAY_MS;
  if (tooLong) throw bad(`An event lasts at most ${EVENT_MAX_DAYS} days`);
  return { startsAt: start.at, endsAt: end.at };
}

/** The instants of a GET range: days count from their midnight, the end as exclusive (FullCalendar's). */
export function rangeTimes(query: { start: string; end: string }, zone: string): { from: Date; to: Date } {
  const from = read("start", query.start, zone).at;
  const to = read("end", query.end, zone).at;
  if (to.getTime() <= from.getTime()) throw bad("end must lie after start");
  if (to.getTime() - from.getTime() > EVENT_RANGE_MAX_DAYS * DAY_MS) {
    throw bad(`A range spans at most ${EVENT_RANGE_MAX_DAYS} days`);
  }
  return { from, to };
}

/** The API's form of stored times: YYYY-MM-DD for all-day events (End exclusive), else ISO instants. */
export function apiTimes(event: { allDay: boolean; startsAt: Date; endsAt: Date }, zone: string) {
  return event.allDay
    ? { Start: isoDay(event.startsAt, zone), End: isoDay(event.endsAt, zone) }
    : { Start: event.startsAt.toISOString(), End: event.endsAt.toISOString() };
}
