import { dayNumber, startOfDayAfter } from "./calendar";

export type ExpiryColour = "red" | "orange" | "yellow" | "green";

/**
 * Whole calendar days from `today` to `expiry` in the configured time zone `zone`
 * (ARCHITECTURE decisions 2 and 16).
 */
export function daysUntil(expiry: Date, today: Date, zone: string): number {
  return dayNumber(expiry, zone) - dayNumber(today, zone);
}

/**
 * The colour rule for one `today`, for many certificates at once: ≤ 0 days → red, 1–7 → orange,
 * 8–30 → yellow, > 30 → green, as three comparisons with the midnights (in `zone`) that begin
 * day 1, 8 and 31 (the same calendar days as daysUntil, without calendar arithmetic per date).
 */
export function expiryColourer(today: Date, zone: string): (expiryMs: number) => ExpiryColour {
  const orangeFrom = startOfDayAfter(today, 1, zone).getTime();
  const yellowFrom = startOfDayAfter(today, 8, zone).getTime();
  const greenFrom = startOfDayAfter(today, 31, zone).getTime();
  return (ms) => (ms < orangeFrom ? "red" : ms < yellowFrom ? "orange" : ms < greenFrom ? "yellow" : "green");
}

/** The colour of one certificate's expiry; none (or no date) → red. */
export function expiryColour(expiry: Date | string | null | undefined, today: Date, zone: string): ExpiryColour {
  if (!expiry) return "red";
  const ms = (typeof expiry === "string" ? new Date(expiry) : expiry).getTime();
  if (Number.isNaN(ms)) return "red";
  return expiryColourer(today, zone)(ms);
}
