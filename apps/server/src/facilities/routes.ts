import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { createFacility, listActivities, listFacilities, listQualifications } from "./service";

export async function facilityRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(
    app,
    endpoints.facilityList,
    {
      onRequest: authenticate(),
    },
    (request) => listFacilities(db, actorOf(request)),
  );

  route(
    app,
    endpoints.facilityCreate,
    {
      onRequest: authenticate(),
    },
    (request) => createFacility(db, actorOf(request), request.body.name, app.deps.config.maxFacilities, app.deps.now()),
  );

  // Reference lists for the user form; any logged-in user may read them.
  route(
    app,
    endpoints.qualificationList,
    {
      onRequest: authenticate(),
    },
    () => listQualifications(db),
  );
  route(
    app,
    endpoints.activityList,
    {
      onRequest: authenticate(),
    },
    () => listActivities(db),
  );
}
