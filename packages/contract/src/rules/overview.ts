import type { ExpiryColour } from "./expiry";

/** Most urgent first: the order of the groups and of a coverage bar. */
export const COLOUR_ORDER: readonly ExpiryColour[] = ["red", "orange", "yellow", "green"];

export interface Counted<T> {
  colour: ExpiryColour;
  items: T[];
}

/** Groups items by certificate colour in the order of COLOUR_ORDER, empty groups included. */
export function groupByColour<T>(items: readonly T[], colourOf: (item: T) => ExpiryColour): Counted<T>[] {
  return COLOUR_ORDER.map((colour) => ({ colour, items: items.filter((i) => colourOf(i) === colour) }));
}

/** Share (0–100, rounded) of valid certificates — green, orange and yellow still count as valid. */
export function validShare(colours: readonly ExpiryColour[]): number {
  if (colours.length === 0) return 0;
  return Math.round((colours.filter((c) => c !== "red").length / colours.length) * 100);
}
