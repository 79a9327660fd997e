import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, serial, timestamp } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/client";
import { lockForTransaction } from "../db/locks";

/*
 * The answer POST's floor, for `npm run bench` only (BENCH_FLOOR_ROUTE=true; a normal start never
 * registers it): the work no answer can do without, in the same process over the same pool. One
 * transaction that takes the learner's quiz lock through the lock registry, inserts one row
 * shaped like a quiz attempt, and commits. The bench compares the answer POST's closed-loop rate
 * with this route's (bench/src/quiz-load.ts).
 *
 * The row goes into bench_floor, a scratch table the bench creates (createFloorTable): the shape,
 * indexes and foreign keys of quiz_attempts, so the insert costs what an attempt costs, without
 * adding attempts that would change the learners' progress. It is not in schema.ts: no migration
 * creates it and no production database has it. The route reads no token: the learner is in the
 * path. Authentication and reading the learner's progress are the answer's work above the floor.
 */

const benchFloor = pgTable("bench_floor", {
  id: serial("id").primaryKey(),
  userId: integer("user_id").notNull(),
  questionnaireId: integer("questionnaire_id").notNull(),
  questionId: integer("question_id").notNull(),
  cycle: integer("cycle").notNull(),
  round: integer("round").notNull(),
  correct: boolean("correct").notNull(),
  answerIds: integer("answer_ids").array().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The bench's scratch table: quiz_attempts' columns, defaults, indexes and foreign keys. */
export async function createFloorTable(db: Db): Promise<void> {
  await db.execute(sql`create table if not exists bench_floor (like quiz_attempts including all)`);
  await db.execute(sql`alter table bench_floor
    add foreign key (user_id) references users (id) on delete cascade,
    add foreign key (questionnaire_id) references questionnaires (id),
    add foreign key (question_id) references questions (id)`);
}

const int = (v: string) => (/^[0-9]{1,9}$/.test(v) ? Number(v) : null);

/** Registered by app.ts only with BENCH_FLOOR_ROUTE=true. */
export async function floorRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  // A round per request, so that the unique index of the attempts' shape takes every row.
  let round = 0;
  app.post<{ Params: { user: string; questionnaire: string; question: string } }>(
    "/bench/floor/:user/:questionnaire/:question",
    async (request, reply) => {
      const userId = int(request.params.user);
      const questionnaireId = int(request.params.questionnaire);
      const questionId = int(request.params.question);
      const body = request.body;
      if (userId === null || questionnaireId === null || questionId === null || !Array.isArray(body)) {
        return reply.code(400).send({ error: "POST /bench/floor/{user}/{questionnaire}/{question} with [answer ids]" });
      }
      const answerIds = body.filter((id): id is number => Number.isInteger(id));
      round = (round + 1) % 2 ** 31;
      const ownRound = round;
      await db.transaction(async (tx) => {
        await lockForTransaction(tx, "quiz", userId);
        await tx
          .insert(benchFloor)
          .values({
            userId,
            questionnaireId,
            questionId,
            cycle: 0,
            round: ownRound,
            correct: false,
            answerIds,
          })
          .onConflictDoNothing();
      });
      return { ok: true };
    },
  );
}
