import { ErrorCode, endpoints } from "@carecampus/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { limitDeps } from "../deps";
import { AppError } from "../errors";
import { route } from "../http/route";
import { SsoProviders } from "./providers";
import { beginSsoLogin, endSessionUrl, finishSsoLogin, SSO_COOKIE, type SsoDeps, SsoFailure } from "./service";

/** The transaction cookie's own attributes: only the SSO addresses see it, never a script. */
function cookieHeader(publicUrl: string, value: string, maxAge: number): string {
  const secure = publicUrl.startsWith("https:") ? "; Secure" : "";
  return `${SSO_COOKIE}=${value}; Path=/api/auth/sso; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

function cookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SSO_COOKIE) return value.join("=");
  }
  return undefined;
}

/** A browser navigating (not a script): a refusal takes it back to the login page, which says why. */
const wantsPage = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? "");

/** Single sign-on (issue 32): the providers the login page offers, the login, its callback, the logout. */
export async function ssoRoutes(app: FastifyInstance): Promise<void> {
  const providers = new SsoProviders(app.deps.config.ssoProviders);
  const deps = (): SsoDeps => ({
    ...limitDeps(app.deps),
    tokens: app.deps.tokens,
    installationTheme: app.deps.config.settings.theme,
    providers,
    publicUrl: app.deps.config.publicUrl,
    maxUsers: app.deps.config.maxUsers,
  });

  // A callback refused before its handler ran (a malformed answer: a parameter twice, one too
  // long) takes a browser back to the login page too; anything else goes on to the app's handler.
  app.setErrorHandler((error, request, reply) => {
    if (!request.routeOptions.url?.endsWith("/auth/sso/:provider/callback") || !wantsPage(request)) throw error;
    request.log.warn(
      {
        event: "sso-callback-failed",
        error_code: ErrorCode.ssoRefused,
        reason: (error as Error).message,
        ip: request.ip,
      },
      "single sign-on callback refused",
    );
    return reply.redirect(`/login?sso_error=${ErrorCode.ssoRefused}`, 302);
  });

  route(app, endpoints.ssoProviders, {}, async (_request, reply) => {
    reply.header("cache-control", "no-store");
    return { providers: await providers.infos() };
  });

  route(app, endpoints.ssoLogin, {}, async (request, reply) => {
    const provider = providers.get(request.params.provider);
    const { url, cookie } = await beginSsoLogin(deps(), provider, request.query.redirect, request.query.app_nonce);
    reply.header("set-cookie", cookieHeader(app.deps.config.publicUrl, cookie, 600));
    reply.header("cache-control", "no-store");
    return reply.redirect(url, 302);
  });

  route(app, endpoints.ssoCallback, {}, async (request, reply) => {
    const provider = providers.get(request.params.provider);
    const search = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
    // The transaction is used once, whatever the outcome.
    reply.header("set-cookie", cookieHeader(app.deps.config.publicUrl, "", 0));
    reply.header("cache-control", "no-store");
    reply.header("referrer-policy", "no-referrer");
    try {
      const { session, redirect, appNonce } = await finishSsoLogin(
        deps(),
        provider,
        request.query as Record<string, unknown>,
        search,
        cookieOf(request),
      );
      request.log.info({ event: "sso-login", provider: provider.id, user: session.user.id }, "single sign-on login");
      // The session in the fragment: it never reaches a server's log or a Referer; the app takes it and removes it.
      const fragment = new URLSearchParams({ sso_token: session.token, sso: provider.id, sso_nonce: appNonce });
      return reply.redirect(`${redirect}#${fragment}`, 302);
    } catch (err) {
      // The security log: what was refused and why, never a code or a token.
      request.log.warn(
        {
          event: "sso-callback-failed",
          provider: provider.id,
          error_code: err instanceof AppError ? err.code : null,
          reason: err instanceof SsoFailure ? err.reason : (err as Error).message,
          ip: request.ip,
        },
        "single sign-on callback refused",
      );
      if (!wantsPage(request)) throw err;
      // Whatever went wrong, a person in a browser lands on the login page, which says it.
      const code = err instanceof AppError ? err.code : ErrorCode.ssoRefused;
      return reply.redirect(`/login?sso_error=${code}`, 302);
    }
  });

  route(app, endpoints.ssoLogout, {}, async (request, reply: FastifyReply) => {
    const provider = providers.get(request.params.provider);
    reply.header("cache-control", "no-store");
    return reply.redirect((await endSessionUrl(deps(), provider)) ?? "/login", 302);
  });
}
