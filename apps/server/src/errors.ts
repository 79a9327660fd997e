import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { type ErrorBody, ErrorCode, errorStatus } from "@carecampus/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
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
/** Retry-After of a 503 (busy): the lock or the load is usually gone within a second. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * PostgreSQL's transient failures: the transaction was ended although nothing about the request
 * was wrong, and the same work usually succeeds a moment later (db/transaction.ts tries it once
 * more). A deadlock (40P01) or a serialization failure (40001) means someone else wrote the same
 * data at the same moment: 409. A lock not had in time (55P03: lock_timeout, NOWAIT) or a
 * statement cancelled (57014: statement_timeout, an operator's cancel) means the database is
 * busy: 503.
 */
const PG_TRANSIENT: Record<string, { code: ErrorCode; message: string }> = {
  "40P01": { code: ErrorCode.conflict, message: "Someone else changed the same data at the same moment: try again" },
  "40001": { code: ErrorCode.conflict, message: "Someone else changed the same data at the same moment: try again" },
  "55P03": { code: ErrorCode.busy, message: "The database is busy: try again in a moment" },
  "57014": { code: ErrorCode.busy, message: "The database is busy: try again in a moment" },
};

/**
 * The SQLSTATE of a database error: drizzle wraps the driver's error (DrizzleQueryError), whose
 * `cause` carries the code; PGlite's and node-postgres's own errors carry it themselves.
 */
export function postgresCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 3 && typeof e === "object" && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A transient PostgreSQL failure that a retry did not cure (or that no retry was allowed for). */
export class TransientDatabaseError extends AppError {
  constructor(readonly sqlState: string) {
    const known = PG_TRANSIENT[sqlState] ?? { code: ErrorCode.busy, message: "The database is busy" };
    super(known.code, known.message);
  }
}

/** The AppError a transient PostgreSQL failure answers with, or undefined for any other error. */
export function transientFailure(err: unknown): TransientDatabaseError | undefined {
  if (err instanceof AppError) return undefined;
  const code = postgresCode(err);
  return code !== undefined && code in PG_TRANSIENT ? new TransientDatabaseError(code) : undefined;
}

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
    // A transient database failure outside db/transaction.ts (or after its retry): 409 or 503.
    const transient = transientFailure(error);
    if (transient) return sendAppError(request, reply, transient);
    if (error instanceof AppError) return sendAppError(request, reply, error);
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
    const pgCode = postgresCode(err);
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

/**
 * The security headers of an answer given before any hook ran (helmet's are set by one): a path
 * the router cannot read, a request the HTTP parser refused. An error body: nothing to load, frame or sniff.
 */
const BARE_ANSWER_HEADERS: Record<string, string> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

const FRAMEWORK_ERRORS: Record<string, string> = {
  FST_ERR_BAD_URL: "Malformed percent-encoding in the path",
  // The router's maxParamLength (app.ts): longer than any id or name of the API.
  FST_ERR_MAX_PARAM_LENGTH: "A part of the path is too long",
};

/**
 * Fastify's `frameworkErrors`: a path the router cannot read (a bad %-escape, a part over the
 * router's limit) answers like any other bad input, 400 with the spec §8 body (Fastify's own
 * answer had its internal code, the caller's URL echoed and no security headers).
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message = FRAMEWORK_ERRORS[error.code];
  // Any other (an async route constraint failing; the app has none): a bug, logged as the handler does.
  if (message === undefined) request.log.error({ err: error }, "unexpected error");
  const [code, status] = message === undefined ? [ErrorCode.unexpected, 500] : [ErrorCode.validation, 400];
  void reply
    .headers(BARE_ANSWER_HEADERS)
    .status(status)
    .send(errorBody(code, status, message ?? "Unexpected error"));
}

/**
 * Fastify's `clientErrorHandler`: a request the HTTP parser refuses (a malformed request line or
 * header, headers too large, a request sent too slowly) gets the spec §8 body on the socket,
 * then the connection is closed, as Node does.
 */
export function clientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, message] =
    err.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "The request took too long"]
      : err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "The request's headers are too large"]
        : [400, "Malformed HTTP request"];
  const body = JSON.stringify(errorBody(ErrorCode.validation, status, message));
  if (socket.writable) {
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      "content-type: application/json; charset=utf-8",
      `content-length: ${Buffer.byteLength(body)}`,
      ...Object.entries(BARE_ANSWER_HEADERS).map(([name, value]) => `${name}: ${value}`),
      "connection: close",
    ];
    socket.write(`${head.join("\r\n")}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/** An AppError as the spec §8 body, with the headers its status asks for. */
function sendAppError(request: FastifyRequest, reply: FastifyReply, err: AppError) {
  logSecurityEvent(request, err.status, err.code);
  if (err instanceof TransientDatabaseError) {
    // Not the caller's fault and no bug, but worth an operator's eye when it happens often.
    request.log.warn({ sqlState: err.sqlState, status: err.status }, "database: transaction ended by the database");
  }
  if (err.status === 429) {
    const seconds = err instanceof TooManyAttempts ? err.retryAfterSeconds : DEFAULT_RETRY_AFTER_SECONDS;
    reply.header("retry-after", String(seconds));
  }
  if (err.status === 503) reply.header("retry-after", String(BUSY_RETRY_AFTER_SECONDS));
  const body = errorBody(err.code, err.status, err.hasMessage ? err.message : undefined);
  return reply.status(err.status).send(err.details ? { ...body, ...err.details } : body);
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
