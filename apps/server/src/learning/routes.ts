import {
  AnswerRequest,
  AnswerResult,
  ErrorBody,
  ErrorCode,
  NextQuestion,
  QuestionnaireParams,
  QuestionParams,
  Topic,
  TopicDetail,
  TopicParams,
  TrainingDetail,
  TrainingParams,
} from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, authenticate } from "../auth/guards";
import { AppError } from "../errors";
import { loadSnapshot, toQuestionnaires, toTopic, toTraining } from "./progress";
import { locateTraining, nextQuestion, submitAnswer } from "./quiz";

/** ?practice=true: repeat a finished questionnaire without touching counts or certificates. */
const PracticeQuery = z.object({ practice: z.enum(["true", "false"]).optional() }).strict();

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
// Learning is the employee's: other roles have no trainings (spec §2).
const learner = authenticate({ admit: "learning.take" });

export async function learningRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const allowAgain = () => app.deps.config.settings["allow-make-questionnaires-again"];
  const zone = app.deps.config.timeZone;

  r.get(
    "/progress/topics",
    { schema: { tags: ["learning"], response: { 200: z.array(Topic), ...errors } }, onRequest: learner },
    async (request) => {
      const now = app.deps.now();
      const snapshot = await loadSnapshot(db, actorOf(request).id, now, zone);
      return snapshot.topics.map((t) => toTopic(t, now, zone));
    },
  );

  r.get(
    "/progress/topics/:id/trainings",
    {
      schema: { tags: ["learning"], params: TopicParams, response: { 200: TopicDetail, ...errors } },
      onRequest: learner,
    },
    async (request) => {
      const now = app.deps.now();
      const snapshot = await loadSnapshot(db, actorOf(request).id, now, zone);
      const topic = snapshot.topics.find((t) => t.id === request.params.id);
      if (!topic) throw new AppError(ErrorCode.notFound, "Topic not found");
      return { topic: toTopic(topic, now, zone), trainings: topic.trainings.map((t) => toTraining(t, now, zone)) };
    },
  );

  r.get(
    "/progress/topics/:topic/trainings/:training/questionnaires",
    {
      schema: { tags: ["learning"], params: TrainingParams, response: { 200: TrainingDetail, ...errors } },
      onRequest: learner,
    },
    async (request) => {
      const now = app.deps.now();
      const snapshot = await loadSnapshot(db, actorOf(request).id, now, zone);
      const { topic, training } = locateTraining(snapshot, request.params.topic, request.params.training);
      return {
        topic: toTopic(topic, now, zone),
        training: toTraining(training, now, zone),
        questionnaires: toQuestionnaires(training, allowAgain(), topic.id),
      };
    },
  );

  r.get(
    "/progress/topics/:topic/trainings/:training/questionnaires/:q/questions",
    {
      schema: {
        tags: ["learning"],
        params: QuestionnaireParams,
        querystring: PracticeQuery,
        response: { 200: NextQuestion, ...errors },
      },
      onRequest: learner,
    },
    (request) =>
      nextQuestion(
        db,
        actorOf(request).id,
        { topicId: request.params.topic, trainingId: request.params.training, questionnaireId: request.params.q },
        app.deps.now(),
        zone,
        allowAgain(),
        request.query.practice === "true",
      ),
  );

  r.post(
    "/progress/topics/:topic/trainings/:training/questionnaires/:q/questions/:question/answers",
    {
      schema: {
        tags: ["learning"],
        params: QuestionParams,
        querystring: PracticeQuery,
        body: AnswerRequest,
        response: { 200: AnswerResult, ...errors },
      },
      onRequest: learner,
    },
    (request) =>
      submitAnswer(
        db,
        actorOf(request).id,
        {
          topicId: request.params.topic,
          trainingId: request.params.training,
          questionnaireId: request.params.q,
          questionId: request.params.question,
        },
        request.body,
        app.deps.now(),
        zone,
        allowAgain(),
        request.query.practice === "true",
      ),
  );
}
