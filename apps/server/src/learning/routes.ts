import { type Endpoint, ErrorCode, endpoints, IDEMPOTENCY_KEY_HEADER, SOURCE_LANGUAGE } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { mayEditQuestionnaire } from "../access/policy";
import { dbClock } from "../deps";
import { AppError } from "../errors";
import { type RouteHandler, route } from "../http/route";
import { actorOf, authenticate, confirming, sessionCheckOf } from "../security/guards";
import { loadSnapshot, namesIn, type Snapshot, toQuestionnaires, toTopic, toTraining } from "./progress";
import { locateTraining, nextQuestion, submitAnswer } from "./quiz";
import { getUserProgress } from "./user-progress";

// Learning is the employee's: other roles have no trainings (spec §2). Every learning route reads
// the learner's progress in one statement first, which confirms the session the guard took from
// memory (security/session-cache.ts SessionCheck): no statement of its own for the session; a
// user changed in the meantime is admitted again and the route runs once more (`confirming`).
const learner = authenticate({ admit: "learning.take", confirmedByStatement: true });

export async function learningRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const allowAgain = () => app.deps.config.settings["allow-make-questionnaires-again"];
  /** The content language a quiz request asks for (its lang, else the learner's interface language); German outside CONTENT_LANGUAGES. */
  const contentLanguage = (asked: string | undefined, actor: { language: string }) => {
    const lang = asked ?? actor.language;
    return app.deps.config.contentLanguages.includes(lang) ? lang : SOURCE_LANGUAGE;
  };
  /**
   * The language of the names on the learning screens (issue 31): the learner's chosen content
   * language, else their interface language — as the quiz's questions, whose language the app asks for.
   */
  const namesFor = (snapshot: Snapshot, actor: { language: string }) =>
    namesIn(snapshot.content.view, contentLanguage(snapshot.content.contentLanguage ?? undefined, actor));
  const zone = app.deps.config.timeZone;
  /** A learning route: the learner's guard, the session confirmed by the route's statement. */
  const learnerRoute = <E extends Endpoint>(endpoint: E, handler: RouteHandler<E>) =>
    route(app, endpoint, { onRequest: learner }, confirming(learner, handler));

  learnerRoute(endpoints.topicList, async (request) => {
    const now = app.deps.now();
    const actor = actorOf(request);
    const snapshot = await loadSnapshot(db, actor.id, now, zone, { session: sessionCheckOf(request) });
    const names = namesFor(snapshot, actor);
    return snapshot.topics.map((t) => toTopic(t, now, zone, names));
  });

  learnerRoute(endpoints.topicGet, async (request) => {
    const now = app.deps.now();
    const actor = actorOf(request);
    const snapshot = await loadSnapshot(db, actor.id, now, zone, { session: sessionCheckOf(request) });
    const topic = snapshot.topics.find((t) => t.id === request.params.id);
    if (!topic) throw new AppError(ErrorCode.notFound, "Topic not found");
    const names = namesFor(snapshot, actor);
    return {
      topic: toTopic(topic, now, zone, names),
      trainings: topic.trainings.map((t) => toTraining(t, now, zone, names)),
    };
  });

  learnerRoute(endpoints.trainingGet, async (request) => {
    const now = app.deps.now();
    const actor = actorOf(request);
    const snapshot = await loadSnapshot(db, actor.id, now, zone, { session: sessionCheckOf(request) });
    const { topic, training } = locateTraining(snapshot, request.params.topic, request.params.training);
    const names = namesFor(snapshot, actor);
    return {
      topic: toTopic(topic, now, zone, names),
      training: toTraining(training, now, zone, names),
      questionnaires: toQuestionnaires(
        training,
        allowAgain(),
        topic.id,
        (facilityId) => mayEditQuestionnaire(actor, facilityId),
        names,
      ),
    };
  });

  learnerRoute(endpoints.questionNext, (request) =>
    nextQuestion(
      db,
      actorOf(request).id,
      { topicId: request.params.topic, trainingId: request.params.training, questionnaireId: request.params.q },
      app.deps.now(),
      zone,
      allowAgain(),
      request.query.practice === "true",
      contentLanguage(request.query.lang, actorOf(request)),
      sessionCheckOf(request),
    ),
  );

  learnerRoute(endpoints.answerSubmit, (request) =>
    submitAnswer(
      db,
      actorOf(request),
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
      request.headers[IDEMPOTENCY_KEY_HEADER],
      contentLanguage(request.query.lang, actorOf(request)),
      sessionCheckOf(request),
    ),
  );

  // The user's progress: their own for /profile, or a user within the staff member's scope.
  route(
    app,
    endpoints.userProgress,
    {
      onRequest: authenticate(),
    },
    (request) => getUserProgress(dbClock(app.deps), actorOf(request), request.params.id),
  );
}
