import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import {
  createAdditionalQualification,
  getUserAdditionalQualifications,
  listAdditionalQualifications,
  setUserAdditionalQualifications,
} from "./service";

/** Additional (external) qualifications of spec §3 and §7 /external. */
export async function additionalQualificationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(
    app,
    endpoints.externalList,
    {
      onRequest: authenticate(),
    },
    (request) => listAdditionalQualifications(db, actorOf(request), request.query.facility),
  );

  route(
    app,
    endpoints.externalCreate,
    {
      onRequest: authenticate(),
    },
    (request) => createAdditionalQualification(db, actorOf(request), request.body, app.deps.now()),
  );

  route(
    app,
    endpoints.externalUserGet,
    {
      onRequest: authenticate(),
    },
    (request) => getUserAdditionalQualifications(db, actorOf(request), request.params.userId),
  );

  route(
    app,
    endpoints.externalUserSet,
    {
      onRequest: authenticate(),
    },
    (request) => setUserAdditionalQualifications(db, actorOf(request), request.params.userId, request.body.externalIDs),
  );
}
