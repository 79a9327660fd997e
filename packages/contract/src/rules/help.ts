/**
 * The badge colour of a question in the help-request list rises with the number of learners
 * who asked: one or two is a question to look at (yellow), three to five a pattern (orange),
 * six or more a question that is probably wrong or unclear (red).
 */
export const HELP_BADGE_THRESHOLDS = { orange: 3, red: 6 } as const;
export const HELP_BADGE_COLOURS = ["yellow", "orange", "red"] as const;
/** Its schema is in schemas/help.ts. */
export type HelpBadgeColour = (typeof HELP_BADGE_COLOURS)[number];

export function helpBadgeColour(count: number): HelpBadgeColour {
  if (count >= HELP_BADGE_THRESHOLDS.red) return "red";
  if (count >= HELP_BADGE_THRESHOLDS.orange) return "orange";
  return "yellow";
}
