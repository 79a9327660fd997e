import { endpoints } from "@carecampus/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { attachment } from "../http/attachment";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { exportPerson, type PrivacyDeps, requestErasure } from "./service";

/** Data protection: the data export and erasure requests (GDPR Art. 15, 17, 20; issue 28). */
export async function privacyRoutes(app: FastifyInstance): Promise<void> {
  const deps: PrivacyDeps = {
    db: app.deps.database.db,
    now: app.deps.now,
    look: {
      zone: app.deps.config.timeZone,
      legalBasis: app.deps.config.settings["show-legal-compliance"],
      publicUrl: app.deps.config.publicUrl,
    },
    retentionYears: app.deps.config.retentionYears,
  };

  const sendExport = async (request: FastifyRequest, reply: FastifyReply, userId: number | "self") => {
    const { stream, filename } = await exportPerson(deps, actorOf(request), userId, (err) =>
      request.log.error({ err }, "data export failed"),
    );
    return reply
      .type("application/zip")
      .header("content-disposition", attachment(filename))
      .header("cache-control", "private, no-store")
      .send(stream);
  };

  // Download links carry their token in the query (decision 9).
  route(app, endpoints.accountExport, { onRequest: authenticate({ queryToken: true }) }, (request, reply) =>
    sendExport(request, reply, "self"),
  );
  route(app, endpoints.adminUserExport, { onRequest: authenticate({ queryToken: true }) }, (request, reply) =>
    sendExport(request, reply, request.params.id),
  );

  route(app, endpoints.accountErasureRequest, { onRequest: authenticate() }, (request) =>
    requestErasure(deps, actorOf(request), "self"),
  );
  route(app, endpoints.adminUserErasure, { onRequest: authenticate() }, (request) =>
    requestErasure(deps, actorOf(request), request.params.id),
  );
}
