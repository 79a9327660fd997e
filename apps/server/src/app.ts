import fastifyCompress from "@fastify/compress";
import fastifyHelmet from "@fastify/helmet";
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
import { auditRoutes } from "./audit/routes";
import { authRoutes } from "./auth/routes";
import { authoringRoutes } from "./authoring/routes";
import { calendarRoutes } from "./calendar/routes";
import { certificateRoutes } from "./certificates/routes";
import { contentRoutes } from "./content/routes";
import { credentialDeps, credentialPages, credentialRoutes } from "./credentials/routes";
import type { AppDeps } from "./deps";
import { clientError, frameworkError, registerErrorHandling } from "./errors";
import { evidenceRoutes } from "./evidence/routes";
import { facilityRoutes } from "./facilities/routes";
import { fileRoutes } from "./files/routes";
import { helpRoutes } from "./help/routes";
import { homeRoutes } from "./home/routes";
import { isApiPath } from "./http/api-path";
import { type Background, createBackground } from "./http/background";
import { BODY_LIMIT } from "./http/body-limit";
import { registerDrain } from "./http/drain";
import { registerJsonBodyParser } from "./http/json-body";
import { floorRoutes } from "./learning/floor";
import { learningRoutes } from "./learning/routes";
import { notificationRoutes } from "./notifications/routes";
import { overviewRoutes } from "./overview/routes";
import { partnerCoursesOn } from "./partner-courses/feature";
import { partnerCourseRoutes } from "./partner-courses/routes";
import { preferenceRoutes } from "./preferences/routes";
import { privacyRoutes } from "./privacy/routes";
import { additionalQualificationRoutes } from "./qualifications/routes";
import { registerScanLimit } from "./security/scan-limit";
import { ssoRoutes } from "./sso/routes";
import { systemRoutes } from "./system/routes";
import { adminUserRoutes } from "./users/admin-routes";
import { userRoutes } from "./users/routes";
import { verifyApiRoutes, verifyPages } from "./verify/routes";
import { registerSpa } from "./web/spa";
import { wikiRoutes } from "./wiki/routes";

export type { AppDeps };

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
    /** Work done after the answer is sent (routes: notifying), awaited on close. */
    background: Background;
  }
}

export interface BuildOptions {
  logger?: boolean;
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
  /** Sees every route as it is registered (the endpoint-table test). */
  onRoute?: (route: RouteOptions) => void;
  /** Writes the log here (tests read the security events), as JSON lines. */
  logStream?: { write(line: string): void };
}

/** The whole HTTP application without a port: main.ts listens, tests call app.inject(). */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger || options.logStream
        ? { level: deps.config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) }
        : false,
    // Start-up, errors and shutdown are logged; per-request lines only drown them.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // TRUST_PROXY hops of X-Forwarded-For are the proxies' own: request.ip is the client's.
    trustProxy: deps.config.trustProxyHops > 0 ? (_address, hop) => hop < deps.config.trustProxyHops : false,
    // Shutdown answers 503 itself (http/drain.ts): with the spec §8 body and Retry-After.
    return503OnClosing: false,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Paths the router cannot read and requests the HTTP parser refuses: the spec §8 body too.
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
  });
  if (options.onRoute) app.addHook("onRoute", options.onRoute);
  // First: a server shutting down answers new requests before any other hook runs.
  registerDrain(app);
  app.decorate("deps", deps);
  app.decorate("background", createBackground(app.log));
  app.addHook("onClose", () => app.background.idle());
  app.decorateRequest("actor", null);
  app.decorateRequest("authTime", null);
  app.decorateRequest("tokenRefused", false);
  app.decorateRequest("sessionCheck", null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerJsonBodyParser(app);
  registerScanLimit(app);

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
  // JSON and the app's text files travel compressed (the progress overview of a large facility
  // is 2 MB of JSON, a tenth of that gzipped); files already compressed (xlsx, PDF, images,
  // video) are left as they are, by their content type.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ["br", "gzip"] });
  // A route whose guard took the session's user from memory answers only once its statement
  // confirmed it (security/session-cache.ts SessionCheck): a route that forgot fails here.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.sessionCheck && !request.sessionCheck.confirmed && reply.statusCode < 400) {
      done(new Error(`${request.routeOptions.url}: the session was not confirmed by the route's statement`));
    } else done(null, payload);
  });
  // Server-Timing: the server's own share of a response (handler and serialisation), visible
  // in the browser's devtools and read by `npm run bench` apart from the network.
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("server-timing", `app;dur=${reply.elapsedTime.toFixed(1)}`);
    // API answers carry personal data (and the login answer a token): no cache, no back-button
    // copy keeps them. Files that chose their own caching (and the hashed assets outside /api) keep it.
    if (
      isApiPath(request.url) &&
      !reply.hasHeader("cache-control") &&
      String(reply.getHeader("content-type") ?? "").includes("json")
    ) {
      reply.header("cache-control", "no-store");
    }
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

  // VERIFIABLE_CREDENTIALS: the signing key and the issuer, loaded once (null while off).
  const credentials = await credentialDeps(deps);
  await app.register(
    async (api) => {
      await api.register(systemRoutes);
      await api.register(authRoutes);
      await api.register(ssoRoutes);
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
      await api.register(wikiRoutes);
      await api.register(partnerCourseRoutes);
      await api.register(authoringRoutes);
      await api.register(privacyRoutes);
      await api.register(auditRoutes);
      await api.register(credentialRoutes(credentials));
      await api.register(verifyApiRoutes);
      await api.register(evidenceRoutes);
      await api.register(homeRoutes);
    },
    { prefix: "/api" },
  );
  // The public verification pages (/v, /v/{code}) of issue 29: server-rendered, no login.
  await app.register(verifyPages);
  // npm run bench only (BENCH_FLOOR_ROUTE=true): the answer POST's floor, outside the API.
  if (deps.config.benchFloorRoute) await app.register(floorRoutes);
  // did:web's document and the credential check page, outside /api.
  await app.register(credentialPages(credentials));

  // show-external-trainings reaches the page only with a partner configured to show.
  const settings = { ...deps.config.settings, "show-external-trainings": partnerCoursesOn(deps.config) };
  await registerSpa(app, options.serveWeb ? deps.config.webDist : "/nonexistent", settings);
  return app;
}
