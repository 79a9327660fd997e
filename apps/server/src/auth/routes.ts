import {
  ErrorBody,
  ErrorCode,
  ForgotPasswordRequest,
  ForgotPasswordResponse,
  LoginRequest,
  LoginResponse,
  RefreshQuery,
  TokenResponse,
} from "@carecampus/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../errors";
import { actorOf, authenticate } from "./guards";
import { forgotPassword, login, refresh } from "./service";

const loginKey = (request: FastifyRequest, field: string) => {
  const body = request.body as Record<string, unknown> | undefined;
  const value = typeof body?.[field] === "string" ? (body[field] as string) : "";
  return `login:${value.normalize("NFC").trim().toLowerCase()}`;
};

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
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

  r.post(
    "/auth/login",
    {
      schema: {
        tags: ["auth"],
        body: LoginRequest,
        response: { 200: LoginResponse, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
      },
      preHandler: limited("login"),
    },
    (request) => login(session(), request.body.login, request.body.password),
  );

  r.post(
    "/auth/refresh",
    {
      schema: { tags: ["auth"], querystring: RefreshQuery, response: { 200: TokenResponse, 401: ErrorBody } },
      onRequest: authenticate(),
    },
    async (request) => {
      const actor = actorOf(request);
      return { token: await refresh(session(), actor.id, request.query.lang ?? actor.language) };
    },
  );

  r.post(
    "/auth/forgotpassword",
    {
      schema: {
        tags: ["auth"],
        body: ForgotPasswordRequest,
        response: { 200: ForgotPasswordResponse, 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
      preHandler: limited("user_login"),
    },
    async (request) => {
      await forgotPassword({ db: app.deps.database.db, now: app.deps.now }, request.body.user_login);
      return { informed: true as const };
    },
  );
}
