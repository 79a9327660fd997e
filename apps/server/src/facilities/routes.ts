import { ErrorBody, FacilityCreate, NamedItem, NamedList } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate } from "../auth/guards";
import { createFacility, listActivities, listFacilities, listQualifications } from "./service";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export async function facilityRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get(
    "/auth/admin/facilities",
    { schema: { tags: ["administration"], response: { 200: NamedList, ...errors } }, onRequest: authenticate() },
    (request) => listFacilities(db, actorOf(request)),
  );

  r.post(
    "/auth/admin/facilities",
    {
      schema: { tags: ["administration"], body: FacilityCreate, response: { 200: NamedItem, ...errors } },
      onRequest: authenticate(),
    },
    (request) => createFacility(db, actorOf(request), request.body.name, app.deps.config.maxFacilities),
  );

  // Reference lists for the user form; any logged-in user may read them.
  r.get(
    "/filter/list/qualification",
    { schema: { tags: ["administration"], response: { 200: NamedList, 401: ErrorBody } }, onRequest: authenticate() },
    () => listQualifications(db),
  );
  r.get(
    "/filter/list/activityfocus",
    { schema: { tags: ["administration"], response: { 200: NamedList, 401: ErrorBody } }, onRequest: authenticate() },
    () => listActivities(db),
  );
}
