export type ExpiryColour = "red" | "orange" | "yellow" | "green";

const DAY_MS = 86_400_000;

function utcDay(date: Date): number {
  return Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / DAY_MS;
}

/** Whole calendar days from `today` to `expiry` in local time (ARCHITECTURE decision 2). */
export function daysUntil(expiry: Date, today: Date): number {
  return utcDay(expiry) - utcDay(today);
}

/**
 * The colour rule for one `today`, for many certificates at once: ≤ 0 days → red, 1–7 → orange,
 * 8–30 → yellow, > 30 → green, as three comparisons with the local midnights that begin day
 * 1, 8 and 31 (the same calendar days as daysUntil, without calendar arithmetic per date).
 */
export function expiryColourer(today: Date): (expiryMs: number) => ExpiryColour {
  const y = today.getFullYear();
  const m = today.getMonth();
  const d = today.getDate();
  const orangeFrom = new Date(y, m, d + 1).getTime();
  const yellowFrom = new Date(y, m, d + 8).getTime();
  const greenFrom = new Date(y, m, d + 31).getTime();
  return (ms) => (ms < orangeFrom ? "red" : ms < yellowFrom ? "orange" : ms < greenFrom ? "yellow" : "green");
}

/** The colour of one certificate's expiry; none (or no date) → red. */
export function expiryColour(expiry: Date | string | null | undefined, today: Date = new Date()): ExpiryColour {
  if (!expiry) return "red";
  const ms = (typeof expiry === "string" ? new Date(expiry) : expiry).getTime();
  if (Number.isNaN(ms)) return "red";
  return expiryColourer(today)(ms);
}
