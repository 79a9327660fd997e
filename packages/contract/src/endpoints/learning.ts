import { z } from "zod";
import {
  AnswerHeaders,
  AnswerRequest,
  AnswerResult,
  NextQuestion,
  QuestionnaireParams,
  QuestionParams,
  QuizQuery,
  Topic,
  TopicDetail,
  TopicParams,
  TrainingDetail,
  TrainingParams,
} from "../schemas/learning";
import { AUTHED, type EndpointSpec, WRITES } from "./common";

/** Learning (employees): the learner's topics, trainings and questions (server: learning/). */
export const learningEndpoints = {
  topicList: {
    method: "GET",
    path: "/progress/topics",
    response: z.array(Topic),
    errors: AUTHED,
    tags: ["learning"],
    description: "The learner's topics with their counts.",
  },
  topicGet: {
    method: "GET",
    path: "/progress/topics/:id/trainings",
    params: TopicParams,
    response: TopicDetail,
    errors: AUTHED,
    tags: ["learning"],
    description: "A topic with the learner's assigned trainings.",
  },
  trainingGet: {
    method: "GET",
    path: "/progress/topics/:topic/trainings/:training/questionnaires",
    params: TrainingParams,
    response: TrainingDetail,
    errors: AUTHED,
    tags: ["learning"],
    description: "A training with its questionnaires.",
  },
  questionNext: {
    method: "GET",
    path: "/progress/topics/:topic/trainings/:training/questionnaires/:q/questions",
    params: QuestionnaireParams,
    query: QuizQuery,
    response: NextQuestion,
    errors: AUTHED,
    tags: ["learning"],
    description: "The next open question of the current round, without anything that reveals the answers.",
  },
  answerSubmit: {
    method: "POST",
    path: "/progress/topics/:topic/trainings/:training/questionnaires/:q/questions/:question/answers",
    params: QuestionParams,
    query: QuizQuery,
    body: AnswerRequest,
    headers: AnswerHeaders,
    response: AnswerResult,
    errors: WRITES,
    tags: ["learning"],
    description:
      "Answers a question with the chosen answer ids: the verdict, explanation and round result. A question the learner cannot be asked (a draft, another facility's own) is 1007 before any other check. With an Idempotency-Key header the same key gets the first answer again and records nothing twice; the same key with another question or other answers is 409 (1105).",
  },
} as const satisfies Record<string, EndpointSpec>;
