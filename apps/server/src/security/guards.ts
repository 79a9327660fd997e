import { ErrorCode } from "@carecampus/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type Action, type Actor, assertMay } from "../access/policy";
import { AppError } from "../errors";
import { sessionUser } from "./session-cache";

export type { Actor };

declare module "fastify" {
  interface FastifyRequest {
    actor: Actor | null;
    /** Epoch seconds of the login the caller's session began with (token claim auth_time). */
    authTime: number | null;
    /** The request carried a token that was refused (counted per IP: security/scan-limit.ts). */
    tokenRefused: boolean;
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
}

/**
 * onRequest hook: verifies the bearer token, looks up the user as the database holds it now (a
 * deleted user or a changed password ends the session at once; security/session-cache.ts) and
 * admits the caller through the access module.
 */
export function authenticate(options: GuardOptions = {}) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = readToken(request, options.queryToken ?? false);
    if (!token) throw new AppError(ErrorCode.sessionExpired, "Not logged in");
    const { tokens, database } = request.server.deps;
    const claims = await tokens.verify(token).catch((err: unknown) => {
      if (err instanceof AppError && err.code === ErrorCode.sessionExpired) request.tokenRefused = true;
      throw err;
    });
    const user = await sessionUser(database.db, Number(claims.sub));
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
  };
}

/** The login time of the session of a request that passed `authenticate`. */
export function authTimeOf(request: FastifyRequest): number {
  if (request.authTime === null) throw new AppError(ErrorCode.sessionExpired, "Not logged in");
  return request.authTime;
}

/** The actor of a request that passed `authenticate`. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError(ErrorCode.sessionExpired, "Not logged in");
  return request.actor;
}
