import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../http/route";
import { authenticate } from "../security/guards";
import { currentContentVersion } from "./service";

export async function contentRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(app, endpoints.contentVersion, { onRequest: authenticate() }, async () => ({
    version: await currentContentVersion(db),
  }));
}
