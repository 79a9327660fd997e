import fastifyCompress from "@fastify/compress";
import fastifyHelmet from "@fastify/helmet";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance, LogController, type RouteOptions } from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from "fastify-type-provider-zod";
import { assignmentRoutes } from "./assignments/routes";
import { authRoutes } from "./auth/routes";
import { calendarRoutes } from "./calendar/routes";
import { certificateRoutes } from "./certificates/routes";
import { contentRoutes } from "./content/routes";
import type { AppDeps } from "./deps";
import { registerErrorHandling } from "./errors";
import { facilityRoutes } from "./facilities/routes";
import { fileRoutes } from "./files/routes";
import { helpRoutes } from "./help/routes";
import { learningRoutes } from "./learning/routes";
import { notificationRoutes } from "./notifications/routes";
import { overviewRoutes } from "./overview/routes";
import { preferenceRoutes } from "./preferences/routes";
import { additionalQualificationRoutes } from "./qualifications/routes";
import { systemRoutes } from "./system/routes";
import { adminUserRoutes } from "./users/admin-routes";
import { userRoutes } from "./users/routes";
import { registerSpa } from "./web/spa";

export type { AppDeps };

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

/** 1 MiB: every JSON call of spec §7 is far smaller; imports raise their own limit. */
const BODY_LIMIT = 1024 * 1024;

export interface BuildOptions {
  logger?: boolean;
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
  /** Sees every route as it is registered (the endpoint-table test). */
  onRoute?: (route: RouteOptions) => void;
}

/** The whole HTTP application without a port: main.ts listens, tests call app.inject(). */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { level: deps.config.logLevel } : false,
    // Start-up, errors and shutdown are logged; per-request lines only drown them.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: process.env.TRUST_PROXY === "true",
    return503OnClosing: true,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  if (options.onRoute) app.addHook("onRoute", options.onRoute);
  app.decorate("deps", deps);
  app.decorateRequest("actor", null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its theme variables into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyRateLimit, { global: false });
  // JSON and the app's text files travel compressed (the progress overview of a large facility
  // is 2 MB of JSON, a tenth of that gzipped); files already compressed (xlsx, PDF, images,
  // video) are left as they are, by their content type.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ["br", "gzip"] });
  // Server-Timing: the server's own share of a response (handler and serialisation), visible
  // in the browser's devtools and read by `npm run bench` apart from the network.
  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("server-timing", `app;dur=${reply.elapsedTime.toFixed(1)}`);
    return payload;
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: "CareCampus API", version: deps.version.version, description: "Spec §7 calls, under /api." },
      servers: [{ url: "/api" }],
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true });

  await app.register(
    async (api) => {
      await api.register(systemRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(preferenceRoutes);
      await api.register(notificationRoutes);
      await api.register(learningRoutes);
      await api.register(certificateRoutes);
      await api.register(fileRoutes);
      await api.register(helpRoutes);
      await api.register(contentRoutes);
      await api.register(adminUserRoutes);
      await api.register(facilityRoutes);
      await api.register(assignmentRoutes);
      await api.register(additionalQualificationRoutes);
      await api.register(overviewRoutes);
      await api.register(calendarRoutes);
    },
    { prefix: "/api" },
  );

  await registerSpa(app, options.serveWeb ? deps.config.webDist : "/nonexistent", deps.config.settings);
  return app;
}
