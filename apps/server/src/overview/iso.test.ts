import { describe, expect, it } from "vitest";
import { isoFormatter } from "./iso";

describe("isoFormatter", () => {
  it("writes what toISOString writes, fractions of a millisecond and dates before 1970 included", () => {
    const iso = isoFormatter();
    const samples = [0, -1, 1, 999, 86_399_999, 86_400_000, -86_400_001, 1_763_900_000_000.987, 951_782_400_000];
    let seed = 42;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      samples.push((seed / 2 ** 31) * 4_102_444_800_000 - 1_000_000_000_000 + seed / 7);
    }
    for (const ms of samples) expect(iso(ms)).toBe(new Date(ms).toISOString());
  });
});
