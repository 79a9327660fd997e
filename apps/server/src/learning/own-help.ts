import type { OwnHelp } from "@carecampus/contract";
import { type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";

/*
 * Read here, not in help/: the help folder asks the learning side which questions a learner can
 * be asked (progress.ts askableQuestion), so learning does not import help (no circle of folders).
 */

/**
 * The learner's own help requests about a question (the newest ten) as one JSON value, for a
 * statement that reads more: the answer POST reads it with the learner's progress, in the
 * statement its transaction reads anyway (learning/progress.ts), a round trip and a pooled
 * connection fewer. ownHelpOf turns it into the quiz's OwnHelp.
 */
export function ownHelpJson(userId: number | Placeholder, questionId: number | Placeholder): SQL {
  return sql`coalesce((select json_agg(json_build_array(h.open, h.text, h.by, h.at) order by h.created desc, h.id desc)
    from (select hr."handled_at" is null as open, rp."text" as text, rp."author_name" as by,
        floor(extract(epoch from rp."created_at") * 1000) as at, hr."created_at" as created, hr."id" as id
      from "help_requests" hr left join "help_replies" rp on rp."id" = hr."reply_id"
      where hr."user_id" = ${userId} and hr."question_id" = ${questionId}
      order by hr."created_at" desc, hr."id" desc limit 10) h), '[]'::json)`;
}

/** One row of ownHelpJson: still open (not handled), and the reply's text, author and time (ms). */
export type OwnHelpRow = [open: boolean, text: string | null, by: string | null, at: number | null];

export function ownHelpOf(rows: readonly OwnHelpRow[]): OwnHelp {
  return {
    open: rows.some(([open]) => open),
    replies: rows.flatMap(([, text, by, at]) =>
      text !== null && at !== null ? [{ text, by: by ?? "", at: new Date(at).toISOString() }] : [],
    ),
  };
}

/** The learner's own help request about a question, for the quiz's explanation view. */
export async function ownHelp(db: Db | Tx, userId: number, questionId: number): Promise<OwnHelp> {
  const result = await db.execute<{ help: OwnHelpRow[] | string }>(
    sql`select ${ownHelpJson(userId, questionId)} as help`,
  );
  const raw = result.rows[0]?.help ?? [];
  return ownHelpOf(typeof raw === "string" ? (JSON.parse(raw) as OwnHelpRow[]) : raw);
}
