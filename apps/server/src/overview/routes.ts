import {
  ErrorBody,
  ExportQuery,
  OverviewCell,
  OverviewParams,
  OverviewQuery,
  PassiveTrainingBody,
  TopicOverview,
  UserIdParams,
} from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate } from "../auth/guards";
import { dbClock } from "../deps";
import { exportOverview, getTopicOverview, markPassiveTraining } from "./service";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** The progress overview of spec §2 and §7 for staff. */
export async function overviewRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get(
    "/progress/admin/topics/:topicId",
    {
      schema: {
        tags: ["progress"],
        description:
          "Every learner the caller may see (optionally of one facility) × every training of the topic assigned to them.",
        params: OverviewParams,
        querystring: OverviewQuery,
        response: { 200: TopicOverview, ...errors },
      },
      // Thousands of cells built by the server itself: documented by the schema, written
      // without checking each cell against it again (the API tests check the shape).
      serializerCompiler: () => (data) => JSON.stringify(data),
      onRequest: authenticate(),
    },
    (request) =>
      getTopicOverview(
        db,
        actorOf(request),
        request.params.topicId,
        request.query.facilityName,
        app.deps.now(),
        app.deps.config.timeZone,
      ),
  );

  // A download link carries its token in the query (decision 9).
  r.get(
    "/progress/admin/export/xlsx",
    {
      schema: {
        tags: ["progress"],
        description: "The overview as an xlsx workbook: a legend sheet and one sheet per topic (or the one chosen).",
        querystring: ExportQuery,
      },
      onRequest: authenticate({ queryToken: true }),
    },
    async (request, reply) => {
      const { query } = request;
      const { stream, filename } = await exportOverview(
        dbClock(app.deps),
        actorOf(request),
        query.facilityName,
        query.topicId,
        (err) => request.log.error({ err }, "xlsx export failed"),
      );
      return reply
        .type("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        .header(
          "content-disposition",
          `attachment; filename="${filename.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
        )
        .header("cache-control", "private, no-store")
        .send(stream);
    },
  );

  r.post(
    "/progress/admin/users/:id/passivetraining",
    {
      schema: {
        tags: ["progress"],
        description: "Marks a passive (in-person) training passed: a certificate from today.",
        params: UserIdParams,
        body: PassiveTrainingBody,
        response: { 200: OverviewCell, ...errors },
      },
      onRequest: authenticate(),
    },
    (request) =>
      markPassiveTraining(
        dbClock(app.deps),
        actorOf(request),
        request.params.id,
        request.body.topicID,
        request.body.trainingID,
      ),
  );
}
