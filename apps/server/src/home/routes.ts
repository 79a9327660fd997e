import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { staffHome } from "./service";

/** The staff start page (issue 30). */
export async function homeRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  route(app, endpoints.staffHome, { onRequest: authenticate({ admit: "home.staff" }) }, (request) =>
    staffHome(db, actorOf(request), app.deps.now(), app.deps.config.timeZone),
  );
}
