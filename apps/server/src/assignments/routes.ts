import { Catalogue, ErrorBody, TrainingMatrix, TrainingMatrixSave, UserIdPathParams } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate } from "../auth/guards";
import { getCatalogue, getTrainingMatrix, saveTrainingMatrix } from "./service";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export async function assignmentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get(
    "/filter/list/topics",
    {
      schema: {
        tags: ["administration"],
        description: "Every current topic with its trainings: the choices of a training matrix or overview.",
        response: { 200: Catalogue, ...errors },
      },
      onRequest: authenticate(),
    },
    (request) => getCatalogue(db, actorOf(request)),
  );

  r.get(
    "/filter/admin/trainingsmatrix/:user_id",
    {
      schema: {
        tags: ["administration"],
        description: "The trainings assigned to a user; id is null while none is stored (every training assigned).",
        params: UserIdPathParams,
        response: { 200: TrainingMatrix, ...errors },
      },
      onRequest: authenticate(),
    },
    (request) => getTrainingMatrix(db, actorOf(request), request.params.user_id),
  );

  r.post(
    "/filter/admin/trainingsmatrix",
    {
      schema: {
        tags: ["administration"],
        description: "Replaces the trainings assigned to a user.",
        body: TrainingMatrixSave,
        response: { 200: TrainingMatrix, ...errors },
      },
      onRequest: authenticate(),
    },
    (request) => saveTrainingMatrix(db, actorOf(request), request.body, app.deps.now()),
  );
}
