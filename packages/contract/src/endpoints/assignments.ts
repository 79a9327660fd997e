import { Catalogue, TrainingMatrix, TrainingMatrixSave, UserIdPathParams } from "../schemas/admin";
import { AUTHED, type EndpointSpec } from "./common";

/** Which trainings a user is assigned: the training matrix (server: assignments/). */
export const assignmentEndpoints = {
  catalogue: {
    method: "GET",
    path: "/filter/list/topics",
    response: Catalogue,
    errors: AUTHED,
    tags: ["administration"],
    description: "Every current topic with its trainings: the choices of a training matrix or overview.",
  },
  trainingMatrixGet: {
    method: "GET",
    path: "/filter/admin/trainingsmatrix/:user_id",
    params: UserIdPathParams,
    response: TrainingMatrix,
    errors: AUTHED,
    tags: ["administration"],
    description: "The trainings assigned to a user; id is null while none is stored (every training assigned).",
  },
  trainingMatrixSave: {
    method: "POST",
    path: "/filter/admin/trainingsmatrix",
    body: TrainingMatrixSave,
    response: TrainingMatrix,
    errors: AUTHED,
    tags: ["administration"],
    description: "Replaces the trainings assigned to a user.",
  },
} as const satisfies Record<string, EndpointSpec>;
