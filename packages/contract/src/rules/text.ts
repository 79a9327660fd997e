import { calendarDay, timeOfDay } from "./calendar";

/**
 * Cuts a name longer than `max` to `max - 3` characters plus '...' (spec §5: 40/37 and 30/27).
 * Counts user-perceived characters so an umlaut or emoji is never split.
 */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, max - 3).join("")}...`;
}

export const TRUNCATE_CERTIFICATE = 40;
export const TRUNCATE_EXTERNAL = 30;
export const TRUNCATE_EXTERNAL_COURSE = 40;

const pad = (n: number) => String(n).padStart(2, "0");

/** DD.MM.yyyy (spec §9) of the calendar day in the configured time zone `zone`. */
export function formatDate(date: Date | string, zone: string): string {
  const d = calendarDay(typeof date === "string" ? new Date(date) : date, zone);
  return `${pad(d.day)}.${pad(d.month)}.${d.year}`;
}

/** DD.MM.YY, the certificate badge format (spec §9), in the configured time zone `zone`. */
export function formatShortDate(date: Date | string, zone: string): string {
  const d = calendarDay(typeof date === "string" ? new Date(date) : date, zone);
  return `${pad(d.day)}.${pad(d.month)}.${pad(d.year % 100)}`;
}

/** A YYYY-MM-DD day (as the server writes into notices) as DD.MM.yyyy; undefined for other text. */
export function formatIsoDay(day: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : undefined;
}

/** HH:mm, 24-hour (spec: 24h times), of an instant in the configured time zone `zone`. */
export function formatTime(date: Date | string, zone: string): string {
  const t = timeOfDay(typeof date === "string" ? new Date(date) : date, zone);
  return `${pad(t.hour)}:${pad(t.minute)}`;
}

/** "First name Surname" as staff are shown by name (replies, revisions, releases); the login when both are empty. */
export function personName(person: { name: string; surname: string; login?: string }): string {
  return `${person.name} ${person.surname}`.trim() || (person.login ?? "");
}
