export type ExpiryColour = "red" | "orange" | "yellow" | "green";

const DAY_MS = 86_400_000;

function utcDay(date: Date): number {
  return Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / DAY_MS;
}

/** Whole calendar days from `today` to `expiry` in local time (ARCHITECTURE decision 2). */
export function daysUntil(expiry: Date, today: Date): number {
  return utcDay(expiry) - utcDay(today);
}

/** ≤ 0 or none → red; 1–7 → orange; 8–30 → yellow; > 30 → green. */
export function expiryColour(expiry: Date | string | null | undefined, today: Date = new Date()): ExpiryColour {
  if (!expiry) return "red";
  const date = typeof expiry === "string" ? new Date(expiry) : expiry;
  if (Number.isNaN(date.getTime())) return "red";
  const days = daysUntil(date, today);
  if (days <= 0) return "red";
  if (days <= 7) return "orange";
  if (days <= 30) return "yellow";
  return "green";
}
