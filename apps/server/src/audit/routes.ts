import { endpoints, sharedRoutes } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { attachment } from "../http/attachment";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { exportAuditCsv, listAudit, verifyAudit } from "./service";

/** The audit trail (issue 28): the page, its CSV and the chain's check. */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const zone = () => app.deps.config.timeZone;
  const withToken = authenticate({ admit: "audit.read", queryToken: true });
  const withHeader = authenticate({ admit: "audit.read" });

  route(
    app,
    sharedRoutes.auditGet,
    {
      // The CSV is a download opened by URL: only it takes the token in the query (decision 9).
      onRequest: (request, reply) =>
        (request.query as { format?: unknown }).format === "csv"
          ? withToken(request, reply)
          : withHeader(request, reply),
    },
    async (request, reply) => {
      const { query } = request;
      if (!("format" in query)) return listAudit(db, actorOf(request), query, zone());
      const { csv, filename } = await exportAuditCsv(db, actorOf(request), query, zone());
      // A Buffer with its own type goes out as it is, past the JSON answer's serializer (the
      // route's 200 schema is the page's; the CSV is the download variant's, which has none).
      await reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", attachment(filename))
        .header("cache-control", "private, no-store")
        .send(Buffer.from(csv, "utf8") as never);
    },
  );

  route(app, endpoints.auditVerify, { onRequest: authenticate({ admit: "audit.verify" }) }, (request) =>
    verifyAudit(db, actorOf(request)),
  );
}
