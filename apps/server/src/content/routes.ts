import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { authenticate } from "../auth/guards";
import { route } from "../http/route";
import { currentContentVersion } from "./service";

export async function contentRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(app, endpoints.contentVersion, { onRequest: authenticate() }, async () => ({
    version: await currentContentVersion(db),
  }));
}
