import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { dbClock } from "../deps";
import { attachment } from "../http/attachment";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { exportOverview, getTopicOverview, markPassiveTraining } from "./service";

/** The progress overview of spec §2 and §7 for staff. */
export async function overviewRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(
    app,
    endpoints.overviewTopic,
    {
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
  route(
    app,
    endpoints.overviewExport,
    {
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
        .header("content-disposition", attachment(filename))
        .header("cache-control", "private, no-store")
        .send(stream);
    },
  );

  route(
    app,
    endpoints.passiveTrainingMark,
    {
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
