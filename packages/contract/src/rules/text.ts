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

/** DD.MM.yyyy (spec §9). */
export function formatDate(date: Date | string): string {
  const d = typeof date === "string" ? new Date(date) : date;
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;
}

/** DD.MM.YY, the certificate badge format (spec §9). */
export function formatShortDate(date: Date | string): string {
  const d = typeof date === "string" ? new Date(date) : date;
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${pad(d.getFullYear() % 100)}`;
}
