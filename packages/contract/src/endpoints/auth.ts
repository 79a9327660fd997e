import {
  ForgotPasswordRequest,
  ForgotPasswordResponse,
  LoginRequest,
  LoginResponse,
  RefreshQuery,
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
} as const satisfies Record<string, EndpointSpec>;
