import { ContentVersion, ErrorBody } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authenticate } from "../auth/guards";
import { currentContentVersion } from "./service";

export async function contentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get(
    "/content/CurrentContentVersion",
    { schema: { tags: ["content"], response: { 200: ContentVersion, 401: ErrorBody } }, onRequest: authenticate() },
    async () => ({ version: await currentContentVersion(db) }),
  );
}
