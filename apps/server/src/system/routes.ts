import { ErrorBody, ErrorCode, HealthResponse, VersionResponse } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../errors";

export async function systemRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get("/health", { schema: { tags: ["system"], response: { 200: HealthResponse, 503: ErrorBody } } }, async () => {
    try {
      await app.deps.database.ping();
    } catch {
      throw new AppError(ErrorCode.unexpected, "Database unavailable", 503);
    }
    return { status: "ok" as const };
  });

  r.get("/version", { schema: { tags: ["system"], response: { 200: VersionResponse } } }, async () => app.deps.version);
}
