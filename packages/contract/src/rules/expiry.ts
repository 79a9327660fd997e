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
 * The instants (epoch milliseconds) from which an expiry is orange, yellow and green on `today`:
 * the midnights in `zone` that begin day 1, 8 and 31. Before the first it is red. A query that
 * counts colours in the database compares with these, the same rule as expiryColourer.
 */
export function expiryBoundaries(
  today: Date,
  zone: string,
): { orangeFrom: number; yellowFrom: number; greenFrom: number } {
  return {
    orangeFrom: startOfDayAfter(today, 1, zone).getTime(),
    yellowFrom: startOfDayAfter(today, 8, zone).getTime(),
    greenFrom: startOfDayAfter(today, 31, zone).getTime(),
  };
}

/**
 * The colour rule for one `today`, for many certificates at once: ≤ 0 days → red, 1–7 → orange,
 * 8–30 → yellow, > 30 → green, as three comparisons with the midnights (in `zone`) that begin
 * day 1, 8 and 31 (the same calendar days as daysUntil, without calendar arithmetic per date).
 */
export function expiryColourer(today: Date, zone: string): (expiryMs: number) => ExpiryColour {
  const { orangeFrom, yellowFrom, greenFrom } = expiryBoundaries(today, zone);
  return (ms) => (ms < orangeFrom ? "red" : ms < yellowFrom ? "orange" : ms < greenFrom ? "yellow" : "green");
}

/** The colour of one certificate's expiry; none (or no date) → red. */
export function expiryColour(expiry: Date | string | null | undefined, today: Date, zone: string): ExpiryColour {
  if (!expiry) return "red";
  const ms = (typeof expiry === "string" ? new Date(expiry) : expiry).getTime();
  if (Number.isNaN(ms)) return "red";
  return expiryColourer(today, zone)(ms);
}

/** A training as the start page's 'due now' card weighs it. */
export interface DueCandidate {
  id: number;
  name: string;
  /** Done in person (a passive training): no questionnaire resumes it. */
  passive: boolean;
  certificate: { expires_at: string } | null;
  /** The questionnaire that resumes it; null where the learner has none (nothing to do here). */
  next_questionnaire_id: number | null;
}

/**
 * The start page's 'due now': at most `max` trainings that are red or orange, the most urgent
 * first — an expired certificate (the proof has lapsed; the longest lapsed first), then a missing
 * one, then one expiring within 7 days (the soonest first); by name where equal. Left out is
 * what no questionnaire of the learner's makes good: passive trainings (done in person) and
 * trainings without a questionnaire for them (e.g. another facility's own, or one just written).
 */
export function dueNow<T extends DueCandidate>(trainings: readonly T[], today: Date, zone: string, max = 3): T[] {
  const colour = expiryColourer(today, zone);
  const rank = (t: T): [number, number] => {
    if (!t.certificate) return [1, 0];
    const ms = new Date(t.certificate.expires_at).getTime();
    if (Number.isNaN(ms)) return [1, 0];
    const c = colour(ms);
    return c === "red" ? [0, ms] : c === "orange" ? [2, ms] : [3, ms];
  };
  return trainings
    .filter((t) => !t.passive && t.next_questionnaire_id !== null)
    .map((t) => ({ t, r: rank(t) }))
    .filter(({ r }) => r[0] < 3)
    .sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || a.t.name.localeCompare(b.t.name, "de"))
    .slice(0, max)
    .map(({ t }) => t);
}
