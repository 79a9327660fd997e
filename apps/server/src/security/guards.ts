import { ErrorCode } from "@carecampus/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type Action, type Actor, assertMay } from "../access/policy";
import { AppError } from "../errors";
import {
  loadSessionUser,
  type SessionCheck,
  type SessionUser,
  StaleSession,
  sessionUser,
  sessionUserToConfirm,
} from "./session-cache";

export type { Actor };

declare module "fastify" {
  interface FastifyRequest {
    actor: Actor | null;
    /** Epoch seconds of the login the caller's session began with (token claim auth_time). */
    authTime: number | null;
    /** The request carried a token that was refused (counted per IP: security/scan-limit.ts). */
    tokenRefused: boolean;
    /** The session's user as the guard admitted it from memory, for the route's statement to confirm. */
    sessionCheck: SessionCheck | null;
  }
}

function readToken(request: FastifyRequest, allowQuery: boolean): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice(7).trim();
  if (allowQuery) {
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    if (typeof token === "string" && token.length > 0) return token;
  }
  return undefined;
}

export interface GuardOptions {
  /**
   * The access actions whose role rules admit the caller (access/policy.ts), checked in order:
   * the first refusal answers. Omit for every logged-in user.
   */
  admit?: Action | readonly Action[];
  /** Accept `?token=` (ARCHITECTURE decision 9: download and static-file endpoints only). */
  queryToken?: boolean;
  /**
   * The route's first statement reads the user and confirms the session (session-cache.ts
   * SessionCheck, sessionCheckOf): the guard takes the user from memory. A route that answers
   * without confirming fails (app.ts), so none can forget to.
   */
  confirmedByStatement?: boolean;
}

/** A token's claims as the installation's token service verified them. */
type Claims = Awaited<ReturnType<FastifyRequest["server"]["deps"]["tokens"]["verify"]>>;

/** The guard of `authenticate`: an onRequest hook, and for `confirming` a second admission. */
export interface Guard {
  (request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Admits the request's caller again with the user read from the database (nothing left to confirm). */
  readmit(request: FastifyRequest): Promise<void>;
}

/** The request's token, verified (a refusal is counted per IP: security/scan-limit.ts). */
async function claimsOf(request: FastifyRequest, options: GuardOptions): Promise<Claims> {
  const token = readToken(request, options.queryToken ?? false);
  if (!token) throw new AppError(ErrorCode.sessionExpired, "Not logged in");
  return request.server.deps.tokens.verify(token).catch((err: unknown) => {
    if (err instanceof AppError && err.code === ErrorCode.sessionExpired) request.tokenRefused = true;
    throw err;
  });
}

/**
 * onRequest hook: verifies the bearer token, looks up the user as the database holds it now (a
 * deleted user or a changed password ends the session at once; security/session-cache.ts) and
 * admits the caller through the access module.
 */
export function authenticate(options: GuardOptions = {}): Guard {
  const guard = async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const claims = await claimsOf(request, options);
    const { db } = request.server.deps.database;
    if (options.confirmedByStatement) {
      const found = await sessionUserToConfirm(db, Number(claims.sub), claims.ver);
      request.sessionCheck = found.check;
      admit(request, found.user, claims, options);
    } else admit(request, await sessionUser(db, Number(claims.sub)), claims, options);
  };
  const readmit = async (request: FastifyRequest): Promise<void> => {
    const claims = await claimsOf(request, options);
    request.sessionCheck = null;
    admit(request, await loadSessionUser(request.server.deps.database.db, Number(claims.sub)), claims, options);
  };
  return Object.assign(guard, { readmit });
}

/** Admits the token's user as read (undefined: no such user) for the guard's actions, or refuses. */
function admit(request: FastifyRequest, user: SessionUser | undefined, claims: Claims, options: GuardOptions): void {
  if (!user || user.tokenVersion !== claims.ver) {
    request.tokenRefused = true;
    throw new AppError(ErrorCode.sessionExpired, "Session expired");
  }
  request.actor = {
    id: user.id,
    login: user.login,
    name: user.name,
    surname: user.surname,
    roles: user.roles,
    facilityId: user.facilityId,
    language: claims.lng,
  };
  request.authTime = claims.auth_time;
  for (const action of typeof options.admit === "string" ? [options.admit] : (options.admit ?? [])) {
    assertMay(request.actor, action);
  }
}

/**
 * The handler of a route whose guard is `confirmedByStatement`. When its statement finds the user
 * changed since the guard took them from memory in a way that leaves the session valid (a role,
 * the facility, a name: session-cache.ts StaleSession), nothing has been changed yet; the guard
 * admits the caller again as the database holds them now (a role no longer held: 403) and the
 * handler runs once more, now without a session to confirm.
 */
export function confirming<H extends (...args: never[]) => unknown>(guard: Guard, handler: H): H {
  return async function (this: unknown, ...args: Parameters<H>) {
    try {
      return await handler.apply(this, args);
    } catch (err) {
      const request = args[0] as unknown as FastifyRequest;
      if (!(err instanceof StaleSession) || !request.sessionCheck) throw err;
      await guard.readmit(request);
      return handler.apply(this, args);
    }
  } as H;
}

/** The login time of the session of a request that passed `authenticate`. */
export function authTimeOf(request: FastifyRequest): number {
  if (request.authTime === null) throw new AppError(ErrorCode.sessionExpired, "Not logged in");
  return request.authTime;
}

/** What the route's statement must confirm of the session (null: nothing, memory is exact). */
export function sessionCheckOf(request: FastifyRequest): SessionCheck | undefined {
  return request.sessionCheck ?? undefined;
}

/** The actor of a request that passed `authenticate`. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError(ErrorCode.sessionExpired, "Not logged in");
  return request.actor;
}
