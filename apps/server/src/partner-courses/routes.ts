import { ErrorCode, endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { createPartnerClient } from "./client";
import { partnerCoursesOn } from "./feature";
import { listPartnerCourses, type PartnerDeps, partnerAdminCourses, partnerLaunchToken } from "./service";

/** External courses of a partner provider: /external-course/* (spec §7). Not /external (additional qualifications). */
export async function partnerCourseRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.deps;
  // One client per app: its short cache of course lists lives with it.
  const partner = partnerCoursesOn(config) && config.partner ? config.partner : null;
  const client = partner ? createPartnerClient(partner, app.deps.now) : null;
  const deps = (): PartnerDeps => {
    // Off or unconfigured: the calls exist (one table) but answer like unknown paths, and the partner is never asked.
    if (!client || !partner) throw new AppError(ErrorCode.notFound, "External courses are not enabled");
    return {
      db: app.deps.database.db,
      now: app.deps.now,
      zone: config.timeZone,
      client,
      certify: partner.certify,
      log: app.log,
    };
  };

  route(app, endpoints.partnerCourses, { onRequest: authenticate() }, (request) =>
    listPartnerCourses(deps(), actorOf(request), request.query),
  );
  route(app, endpoints.partnerAdminCourses, { onRequest: authenticate() }, (request) =>
    partnerAdminCourses(deps(), actorOf(request), request.query),
  );
  route(app, endpoints.partnerToken, { onRequest: authenticate() }, (request) =>
    partnerLaunchToken(deps(), actorOf(request)),
  );
}
