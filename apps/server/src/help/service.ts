import { ErrorCode } from "@carecampus/contract";
import { and, eq } from "drizzle-orm";
import type { Actor } from "../access/policy";
import type { Db } from "../db/client";
import { helpRequests, questionnaires, questions, topics, trainings } from "../db/schema";
import { AppError } from "../errors";

/** An employee asks for help with a question; staff of the facility see it in /helprequests. */
export async function createHelpRequest(db: Db, actor: Actor, questionId: number): Promise<number> {
  const [q] = await db
    .select({ id: questions.id })
    .from(questions)
    .innerJoin(questionnaires, eq(questionnaires.id, questions.questionnaireId))
    .innerJoin(trainings, eq(trainings.id, questionnaires.trainingId))
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(
      and(
        eq(questions.id, questionId),
        eq(questions.retired, false),
        eq(trainings.retired, false),
        eq(topics.retired, false),
      ),
    );
  if (!q) throw new AppError(ErrorCode.questionNotFound, "Question not found");
  const [row] = await db
    .insert(helpRequests)
    .values({ userId: actor.id, questionId, facilityId: actor.facilityId })
    .returning({ id: helpRequests.id });
  return (row as { id: number }).id;
}
