import { describe, expect, it } from "vitest";
import { foldDiff } from "./fold";

describe("the diff view", () => {
  it("folds long unchanged stretches and keeps two lines around each change", () => {
    const same = (n: number) => Array.from({ length: n }, (_, i) => ({ type: "same" as const, text: `s${i}` }));
    const lines = [...same(6), { type: "added" as const, text: "neu" }, ...same(6)];
    const items = foldDiff(lines);
    expect(items.map((i) => (i.kind === "fold" ? `fold${i.lines}` : i.line.text))).toEqual([
      "fold4",
      "s4",
      "s5",
      "neu",
      "s0",
      "s1",
      "fold4",
    ]);
    // An opened fold shows its lines; short stretches never fold.
    expect(foldDiff(lines, new Set([0])).filter((i) => i.kind === "fold")).toHaveLength(1);
    expect(foldDiff([...same(2), { type: "removed", text: "x" }]).every((i) => i.kind === "line")).toBe(true);
  });
});
