import { ErrorCode, hasAnyRole, type Language, type Role, seesAllFacilities } from "@carecampus/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors";
import { loadSessionUser } from "../users/service";

/** The logged-in user as every guard and service sees them. */
export interface Actor {
  id: number;
  login: string;
  name: string;
  surname: string;
  roles: Role[];
  facilityId: number | null;
  language: Language;
}

declare module "fastify" {
  interface FastifyRequest {
    actor: Actor | null;
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
  /** Roles admitted; superchris always passes. Omit for every logged-in user. */
  roles?: readonly Role[];
  /** Accept `?token=` (ARCHITECTURE decision 9: download and static-file endpoints only). */
  queryToken?: boolean;
}

/**
 * onRequest hook: verifies the bearer token, reloads the user (a deleted user or a changed
 * password ends the session at once) and checks the roles.
 */
export function authenticate(options: GuardOptions = {}) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = readToken(request, options.queryToken ?? false);
    if (!token) throw new AppError(ErrorCode.sessionExpired, "Not logged in");
    const { tokens, database } = request.server.deps;
    const claims = await tokens.verify(token);
    const user = await loadSessionUser(database.db, Number(claims.sub));
    if (!user || user.tokenVersion !== claims.ver) throw new AppError(ErrorCode.sessionExpired, "Session expired");
    request.actor = {
      id: user.id,
      login: user.login,
      name: user.name,
      surname: user.surname,
      roles: user.roles,
      facilityId: user.facilityId,
      language: claims.lng,
    };
    if (options.roles && !hasAnyRole(user.roles, options.roles)) {
      throw new AppError(ErrorCode.forbidden, "Your role may not do this");
    }
  };
}

/** The actor of a request that passed `authenticate`. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError(ErrorCode.sessionExpired, "Not logged in");
  return request.actor;
}

/** May `actor` see a user of `facilityId`? superchris/contentmanager all; staff their own facility. */
export function mayAccessFacility(actor: Actor, facilityId: number | null): boolean {
  if (seesAllFacilities(actor.roles)) return true;
  return facilityId !== null && actor.facilityId === facilityId;
}

/** May `actor` see this user's data? Themselves, or staff whose scope includes the user. */
export function maySeeUser(actor: Actor, target: { id: number; facilityId: number | null }): boolean {
  if (actor.id === target.id) return true;
  if (!hasAnyRole(actor.roles, ["contentmanager", "administrator", "supervisor"])) return false;
  return mayAccessFacility(actor, target.facilityId);
}

/** Only the user themselves (or superchris) may act on their own account and preferences. */
export function requireSelf(actor: Actor, userId: number): void {
  if (actor.id !== userId && !actor.roles.includes("superchris")) {
    throw new AppError(ErrorCode.userNotFound, "User not found");
  }
}
