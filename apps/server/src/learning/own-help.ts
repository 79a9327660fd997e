import type { OwnHelp } from "@carecampus/contract";
import { and, desc, eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { helpReplies, helpRequests } from "../db/schema";

/*
 * Read here, not in help/: the help folder asks the learning side which questions a learner can
 * be asked (progress.ts askableQuestion), so learning does not import help (no circle of folders).
 */

/** The learner's own help request about a question, for the quiz's explanation view. */
export async function ownHelp(db: Db | Tx, userId: number, questionId: number): Promise<OwnHelp> {
  const rows = await db
    .select({
      handledAt: helpRequests.handledAt,
      text: helpReplies.text,
      by: helpReplies.authorName,
      at: helpReplies.createdAt,
    })
    .from(helpRequests)
    .leftJoin(helpReplies, eq(helpReplies.id, helpRequests.replyId))
    .where(and(eq(helpRequests.userId, userId), eq(helpRequests.questionId, questionId)))
    .orderBy(desc(helpRequests.createdAt), desc(helpRequests.id))
    .limit(10);
  return {
    open: rows.some((r) => r.handledAt === null),
    replies: rows.flatMap((r) =>
      r.text !== null && r.at !== null ? [{ text: r.text, by: r.by ?? "", at: r.at.toISOString() }] : [],
    ),
  };
}
