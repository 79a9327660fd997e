import { type ErrorBody, ErrorCode, errorStatus } from "@carecampus/contract";
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";

/** A foreseen failure: the one handler turns it into the spec §8 body. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    status?: number,
    /** Extra fields of the body, e.g. the bad rows of a refused import. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? `error ${code}`);
    this.status = status ?? errorStatus[code];
    this.hasMessage = message !== undefined;
  }
  readonly hasMessage: boolean;
}

/** 429: a limit is reached; the answer says when to try again (Retry-After, in seconds). */
export class TooManyAttempts extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message = "Too many attempts, please wait",
  ) {
    super(ErrorCode.rateLimited, message, 429);
  }
}

/** Retry-After of a 429 that does not know better (a limit of a plugin). */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

export function errorBody(code: number, status: number, message?: string): ErrorBody {
  return message === undefined
    ? { error_code: code, status_code: status }
    : { error_code: code, message, status_code: status };
}

const FASTIFY_CODES: Record<string, { code: ErrorCode; status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: ErrorCode.malformedJson, status: 400, message: "Malformed JSON body" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: ErrorCode.malformedJson, status: 400, message: "Empty JSON body" },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: ErrorCode.payloadTooLarge, status: 413, message: "Request body too large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: ErrorCode.validation, status: 415, message: "Unsupported content type" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: ErrorCode.validation, status: 400, message: "Invalid content length" },
};

/** invalid byte sequence, untranslatable character, string too long, numeric out of range */
const PG_INPUT_ERRORS = new Set(["22021", "22P05", "22001", "22003"]);

/** One handler for every failure: spec §8 body, right status, internals hidden on 5xx. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof AppError) {
      const err = error;
      logSecurityEvent(request, err.status, err.code);
      if (err.status === 429) {
        const seconds = err instanceof TooManyAttempts ? err.retryAfterSeconds : DEFAULT_RETRY_AFTER_SECONDS;
        reply.header("retry-after", String(seconds));
      }
      const body = errorBody(err.code, err.status, err.hasMessage ? err.message : undefined);
      return reply.status(err.status).send(err.details ? { ...body, ...err.details } : body);
    }
    const err = error as FastifyError;
    if (hasZodFastifySchemaValidationErrors(err)) {
      const message = err.validation
        .slice(0, 5)
        .map((v) => `${v.instancePath.replace(/^\//, "").replaceAll("/", ".") || err.validationContext}: ${v.message}`)
        .join("; ");
      return reply.status(400).send(errorBody(ErrorCode.validation, 400, message));
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return reply.status(known.status).send(errorBody(known.code, known.status, known.message));
    // Defence in depth: input PostgreSQL cannot store is the caller's fault, not ours.
    const pgCode = (err as { code?: string }).code ?? (err.cause as { code?: string } | undefined)?.code;
    if (pgCode === "23505") {
      // A unique key the checks before the write could not foresee (e.g. two spellings one lower() folds).
      return reply.status(409).send(errorBody(ErrorCode.conflict, 409, "The data conflicts with an existing entry"));
    }
    if (pgCode && PG_INPUT_ERRORS.has(pgCode)) {
      return reply.status(400).send(errorBody(ErrorCode.validation, 400, "Invalid characters in the input"));
    }
    if (err.statusCode === 429) {
      logSecurityEvent(request, 429, ErrorCode.rateLimited);
      reply.header("retry-after", String(DEFAULT_RETRY_AFTER_SECONDS));
      return reply.status(429).send(errorBody(ErrorCode.rateLimited, 429, "Too many attempts, please wait a minute"));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(errorBody(ErrorCode.validation, err.statusCode, err.message));
    }
    request.log.error({ err }, "unexpected error");
    return reply.status(500).send(errorBody(ErrorCode.unexpected, 500, "Unexpected error"));
  });
}

/** The security events of a failed request, by its answer (none for the rest). */
function securityEvent(status: number, code: number): string | null {
  if (code === ErrorCode.invalidCredentials) return "password-failed";
  if (status === 429) return "rate-limited";
  if (status === 403) return "access-refused";
  return null;
}

/** The login a request names: the caller's, or the one a login or forgot-password body carries. */
function loginOf(request: FastifyRequest): string | undefined {
  if (request.actor) return request.actor.login;
  const body = request.body as Record<string, unknown> | undefined;
  const named = body && typeof body === "object" ? (body.login ?? body.user_login) : undefined;
  return typeof named === "string" ? named.slice(0, 100) : undefined;
}

/**
 * Failed password checks, limits reached and refused roles go to the log with the login and
 * the client's IP, for an administrator or a fail2ban-style watcher. Never a password, a token
 * or a query string (which may carry `?token=`): only the route's pattern is written.
 */
function logSecurityEvent(request: FastifyRequest, status: number, code: number): void {
  const event = securityEvent(status, code);
  if (!event) return;
  request.log.warn(
    {
      event,
      login: loginOf(request),
      ip: request.ip,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split("?")[0],
      error_code: code,
      status,
    },
    `security: ${event}`,
  );
}
