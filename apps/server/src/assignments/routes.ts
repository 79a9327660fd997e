import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { getCatalogue, getTrainingMatrix, saveTrainingMatrix } from "./service";

export async function assignmentRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(
    app,
    endpoints.catalogue,
    {
      onRequest: authenticate(),
    },
    (request) => getCatalogue(db, actorOf(request)),
  );

  route(
    app,
    endpoints.trainingMatrixGet,
    {
      onRequest: authenticate(),
    },
    (request) => getTrainingMatrix(db, actorOf(request), request.params.user_id),
  );

  route(
    app,
    endpoints.trainingMatrixSave,
    {
      // A matrix names every training of the catalogue it assigns: more than the default allows.
      bodyLimit: 1024 * 1024,
      onRequest: authenticate(),
    },
    (request) => saveTrainingMatrix(db, actorOf(request), request.body, app.deps.now()),
  );
}
