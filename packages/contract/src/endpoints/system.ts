import { HealthResponse, VersionResponse } from "../schemas/common";
import type { EndpointSpec } from "./common";

/** Liveness and the running build (server: system/). */
export const systemEndpoints = {
  health: {
    method: "GET",
    path: "/health",
    response: HealthResponse,
    errors: [503],
    tags: ["system"],
    description: "Liveness with a database ping: 503 while the database cannot be reached.",
  },
  version: {
    method: "GET",
    path: "/version",
    response: VersionResponse,
    errors: [],
    tags: ["system"],
    description: "The running build: commit, date and version.",
  },
} as const satisfies Record<string, EndpointSpec>;
