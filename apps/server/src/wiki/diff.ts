import { ErrorCode, type WikiDiff } from "@carecampus/contract";
import { diffLines, diffWordsWithSpace } from "diff";
import type { Actor } from "../access/policy";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { loadRevision, pageForEdit, textIn } from "./pages";

type Line = WikiDiff["lines"][number];

const lines = (s: string) => s.replace(/\n$/, "").split("\n");

/**
 * A readable diff of two texts: line by line; where a run of removed lines meets a run of added
 * ones, they pair up as changed lines with the changed words marked.
 */
export function diffText(before: string, after: string): { lines: Line[]; added: number; removed: number } {
  const out: Line[] = [];
  let added = 0;
  let removed = 0;
  const parts = diffLines(before.endsWith("\n") ? before : `${before}\n`, after.endsWith("\n") ? after : `${after}\n`);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part) continue;
    const next = parts[i + 1];
    if (part.removed && next?.added) {
      const gone = lines(part.value);
      const come = lines(next.value);
      const pairs = Math.min(gone.length, come.length);
      for (let k = 0; k < pairs; k++) {
        const words = diffWordsWithSpace(gone[k] ?? "", come[k] ?? "").map((w) => ({
          type: w.added ? ("added" as const) : w.removed ? ("removed" as const) : ("same" as const),
          text: w.value,
        }));
        out.push({ type: "changed", text: come[k] ?? "", parts: words });
      }
      for (const t of gone.slice(pairs)) out.push({ type: "removed", text: t });
      for (const t of come.slice(pairs)) out.push({ type: "added", text: t });
      removed += gone.length;
      added += come.length;
      i++;
      continue;
    }
    const type = part.added ? "added" : part.removed ? "removed" : "same";
    for (const t of lines(part.value)) out.push({ type, text: t });
    if (part.added) added += part.count ?? 0;
    if (part.removed) removed += part.count ?? 0;
  }
  return { lines: out, added, removed };
}

/** GET /wiki/pages/{id}/diff: editors compare two revisions in one language. */
export async function diffRevisions(
  db: Db,
  actor: Actor,
  id: number,
  query: { from: number; to: number; lang?: string },
): Promise<WikiDiff> {
  await pageForEdit(db, actor, id);
  const [from, to] = await Promise.all([loadRevision(db, id, query.from), loadRevision(db, id, query.to)]);
  if (!from || !to) throw new AppError(ErrorCode.notFound, "Revision not found");
  const lang = query.lang ?? actor.language;
  const a = textIn(from.content, lang);
  const b = textIn(to.content, lang);
  return {
    from: from.number,
    to: to.number,
    lang: b.lang,
    title: { from: a.text.title, to: b.text.title },
    ...diffText(a.text.markdown, b.text.markdown),
  };
}
