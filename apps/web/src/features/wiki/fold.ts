import type { WikiDiff } from "@carecampus/contract";

/** Unchanged lines shown around a change; longer unchanged stretches fold away. */
const CONTEXT = 2;

export type Line = WikiDiff["lines"][number];
export type DiffItem = { kind: "line"; line: Line; index: number } | { kind: "fold"; start: number; lines: number };

/** The lines to show: every change with CONTEXT unchanged lines around it, the rest folded (three or more). */
export function foldDiff(lines: readonly Line[], open: ReadonlySet<number> = new Set()): DiffItem[] {
  const near = lines.map((_, i) =>
    lines.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((l) => l.type !== "same"),
  );
  const items: DiffItem[] = [];
  let i = 0;
  while (i < lines.length) {
    let end = i;
    while (end < lines.length && !near[end]) end++;
    if (end - i >= 3 && !open.has(i)) {
      items.push({ kind: "fold", start: i, lines: end - i });
      i = end;
      continue;
    }
    const stop = Math.max(end, i + 1);
    for (; i < stop && i < lines.length; i++) items.push({ kind: "line", line: lines[i] as Line, index: i });
  }
  return items;
}
