import { describe, expect, it } from "vitest";
import { HELP_BADGE_THRESHOLDS, helpBadgeColour } from "./help";

describe("help request badge colour", () => {
  it("rises with the number of learners who asked: yellow, orange from 3, red from 6", () => {
    expect([1, 2, 3, 5, 6, 40].map(helpBadgeColour)).toEqual(["yellow", "yellow", "orange", "orange", "red", "red"]);
    expect(helpBadgeColour(HELP_BADGE_THRESHOLDS.orange - 1)).toBe("yellow");
    expect(helpBadgeColour(HELP_BADGE_THRESHOLDS.red - 1)).toBe("orange");
  });
});
