import { ErrorCode, endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { limitDeps } from "../deps";
import { route } from "../http/route";
import { actorOf, authenticate, authTimeOf } from "../security/guards";
import { consumeForgotPassword } from "../security/limits";
import { forgotPassword, login, refresh } from "./service";

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const session = () => ({ db: app.deps.database.db, tokens: app.deps.tokens });

  route(app, endpoints.login, {}, (request) =>
    login(
      { ...session(), ...limitDeps(app.deps), installationTheme: app.deps.config.settings.theme },
      request.body.login,
      request.body.password,
      request.ip,
    ),
  );

  route(
    app,
    endpoints.refresh,
    {
      onRequest: authenticate(),
    },
    async (request) => {
      const actor = actorOf(request);
      return {
        token: await refresh(session(), actor.id, request.query.lang ?? actor.language, authTimeOf(request)),
      };
    },
  );

  // The answer is the same for every login and goes out before anything is looked up; the
  // administrators are informed afterwards (auth/service.ts forgotPassword says why 1016 is
  // never answered here).
  route(
    app,
    endpoints.forgotPassword,
    {
      onResponse: async (request, reply) => {
        if (reply.statusCode !== 200) return;
        const loginName = request.body.user_login;
        app.background.run("forgot-password", async () => {
          const outcome = await forgotPassword({ db: app.deps.database.db, now: app.deps.now }, loginName);
          if (outcome === "nobody") {
            request.log.warn(
              {
                event: "password-reset-unanswered",
                login: loginName,
                ip: request.ip,
                error_code: ErrorCode.adminDoesNotExist,
              },
              "forgot password: nobody to inform (no administrator, no other superuser); use npm run admin:reset-password",
            );
          }
        });
      },
    },
    async (request) => {
      await consumeForgotPassword(limitDeps(app.deps), request.body.user_login, request.ip);
      return { informed: true as const };
    },
  );
}
