import { ErrorCode, endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors";
import { route } from "../http/route";

export async function systemRoutes(app: FastifyInstance): Promise<void> {
  route(app, endpoints.health, {}, async () => {
    try {
      await app.deps.database.ping();
    } catch {
      throw new AppError(ErrorCode.unexpected, "Database unavailable", 503);
    }
    return { status: "ok" as const };
  });

  route(app, endpoints.version, {}, async () => app.deps.version);
}
