import {
  ForgotPasswordRequest,
  ForgotPasswordResponse,
  LoginRequest,
  LoginResponse,
  RefreshQuery,
  SsoCallbackQuery,
  SsoLoginQuery,
  SsoProviderParams,
  SsoProvidersResponse,
  TokenResponse,
} from "../schemas/auth";
import type { EndpointSpec } from "./common";

/** Logging in, renewing a session's token, a forgotten password (server: auth/). */
export const authEndpoints = {
  login: {
    method: "POST",
    path: "/auth/login",
    body: LoginRequest,
    response: LoginResponse,
    errors: [400, 401, 429],
    tags: ["auth"],
    description:
      "Logs in with login and password: a session token and the user. Failed attempts lock the account for a while and, in greater number, the IP: 429 with Retry-After.",
  },
  refresh: {
    method: "POST",
    path: "/auth/refresh",
    query: RefreshQuery,
    response: TokenResponse,
    errors: [400, 401],
    tags: ["auth"],
    description:
      "A new token for a valid one; ?lang= changes the token's language claim. Refused (401/1010) once the session is SESSION_MAX_HOURS old.",
  },
  forgotPassword: {
    method: "POST",
    path: "/auth/forgotpassword",
    body: ForgotPasswordRequest,
    response: ForgotPasswordResponse,
    errors: [400, 429],
    tags: ["auth"],
    description:
      "Informs the administrators of the user's facility (or the superusers), after answering: the same answer, at the same speed, whether the login exists or not. 429 with Retry-After beyond LOGIN_RATE_LIMIT a minute.",
  },
  ssoProviders: {
    method: "GET",
    path: "/auth/sso/providers",
    response: SsoProvidersResponse,
    errors: [],
    tags: ["auth"],
    description:
      "Public (issue 32): the single sign-on providers the login page offers, each with its id, the name its button shows, and whether it answered lately (`available`; a provider that does not answer within a few seconds is unavailable, and the password form works as ever).",
  },
  ssoLogin: {
    method: "GET",
    path: "/auth/sso/:provider/login",
    params: SsoProviderParams,
    query: SsoLoginQuery,
    kind: "redirect",
    errors: [400, 404, 503],
    tags: ["auth"],
    description:
      "Opened by the browser: 302 to the provider's authorization endpoint (authorization code with PKCE S256, state and nonce, the exact redirect URI PUBLIC_URL/api/auth/sso/{provider}/callback), with a short-lived encrypted transaction cookie. `redirect`: the app's page to return to. 404 for an unknown provider, 503 (1112) when it does not answer.",
  },
  ssoCallback: {
    method: "GET",
    path: "/auth/sso/:provider/callback",
    params: SsoProviderParams,
    query: SsoCallbackQuery,
    kind: "redirect",
    errors: [400, 401, 403, 404, 503],
    tags: ["auth"],
    description:
      "The provider's answer: the code is exchanged and the ID token checked; the person is found by the provider's identity claims, linked by a verified e-mail where the provider allows it, or created in the provider's facility with the mapped roles (SSO roles re-synchronised at each login; roles given by hand stay). Then 302 to the page wanted with the session in the address's fragment (#sso_token=…), which the app takes and removes. A browser (Accept: text/html) is sent to /login?sso_error=<code> on a refusal; other callers get the §8 error: 400 (1113) a state or code not of a login begun here, 401 (1114) an ID token that fails a check, 403 (1115) no account may be used or created (archived, locked, unknown without creation), 503 (1112) the provider not answering.",
  },
  ssoLogout: {
    method: "GET",
    path: "/auth/sso/:provider/logout",
    params: SsoProviderParams,
    kind: "redirect",
    errors: [404],
    tags: ["auth"],
    description:
      "Opened by the browser after the app ended its session: 302 to the provider's end-session endpoint (RP-initiated logout, back to /login) where the provider offers one and end_session is on; else to /login.",
  },
} as const satisfies Record<string, EndpointSpec>;
