import { sharedRoutes } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { attachment } from "../http/attachment";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { evidenceFile, loadEvidence } from "./service";

/** The facility's evidence at a date (issue 29): the answer, its PDF and its workbook. */
export async function evidenceRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const withToken = authenticate({ admit: "evidence.read", queryToken: true });
  const withHeader = authenticate({ admit: "evidence.read" });

  route(
    app,
    sharedRoutes.evidenceGet,
    {
      // The files are downloads opened by URL: only they take the token in the query (decision 9).
      onRequest: (request, reply) =>
        "format" in (request.query as object) ? withToken(request, reply) : withHeader(request, reply),
    },
    async (request, reply) => {
      const { query } = request;
      const zone = app.deps.config.timeZone;
      if (!("format" in query)) return loadEvidence(db, actorOf(request), query, app.deps.now(), zone);
      const file = await evidenceFile(db, actorOf(request), query, {
        now: app.deps.now(),
        zone,
        installation: app.deps.config.installationName,
      });
      // A Buffer goes out as it is, past the JSON answer's serializer (as the audit's CSV).
      await reply
        .type(file.type)
        .header("content-disposition", attachment(file.filename))
        .header("cache-control", "private, no-store")
        .send(file.body as never);
    },
  );
}
