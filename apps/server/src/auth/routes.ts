import { ErrorCode, endpoints } from "@carecampus/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors";
import { route } from "../http/route";
import { actorOf, authenticate } from "./guards";
import { forgotPassword, login, refresh } from "./service";

const loginKey = (request: FastifyRequest, field: string) => {
  const body = request.body as Record<string, unknown> | undefined;
  const value = typeof body?.[field] === "string" ? (body[field] as string) : "";
  return `login:${value.normalize("NFC").trim().toLowerCase()}`;
};

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const max = app.deps.config.loginRateLimit;
  const session = () => ({ db: app.deps.database.db, tokens: app.deps.tokens });
  // Two limits: per IP (guessing many logins) and per login (guessing one login from many IPs).
  const perIp = app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (req) => `ip:${req.ip}` });
  const limited = (field: string) => {
    const perLogin = app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (req) => loginKey(req, field) });
    return async (request: FastifyRequest) => {
      const [ip, login] = await Promise.all([perIp(request), perLogin(request)]);
      if ((!ip.isAllowed && ip.isExceeded) || (!login.isAllowed && login.isExceeded)) {
        throw new AppError(ErrorCode.rateLimited, "Too many attempts, please wait a minute");
      }
    };
  };

  route(
    app,
    endpoints.login,
    {
      preHandler: limited("login"),
    },
    (request) => login(session(), request.body.login, request.body.password),
  );

  route(
    app,
    endpoints.refresh,
    {
      onRequest: authenticate(),
    },
    async (request) => {
      const actor = actorOf(request);
      return { token: await refresh(session(), actor.id, request.query.lang ?? actor.language) };
    },
  );

  route(
    app,
    endpoints.forgotPassword,
    {
      preHandler: limited("user_login"),
    },
    async (request) => {
      await forgotPassword({ db: app.deps.database.db, now: app.deps.now }, request.body.user_login);
      return { informed: true as const };
    },
  );
}
