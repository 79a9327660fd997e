import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { dbClock } from "../deps";
import { attachment } from "../http/attachment";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { revokeCertificate } from "./revoke";
import { certificatePdf } from "./service";

export async function certificateRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  // A download link opened in a new tab carries its token in the query (decision 9).
  route(
    app,
    endpoints.certificatePdf,
    {
      onRequest: authenticate({ queryToken: true }),
    },
    async (request, reply) => {
      const { pdf, filename } = await certificatePdf(
        db,
        actorOf(request),
        request.query.id,
        {
          zone: app.deps.config.timeZone,
          legalBasis: app.deps.config.settings["show-legal-compliance"],
          publicUrl: app.deps.config.publicUrl,
        },
        request.query.source,
      );
      return reply
        .type("application/pdf")
        .header("content-disposition", attachment(filename))
        .header("cache-control", "private, no-store")
        .send(Buffer.from(pdf));
    },
  );

  route(app, endpoints.certificateRevoke, { onRequest: authenticate() }, (request) =>
    revokeCertificate(dbClock(app.deps), actorOf(request), request.params.id, request.body),
  );
}
