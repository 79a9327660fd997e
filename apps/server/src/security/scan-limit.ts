import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { limitDeps } from "../deps";
import { TooManyAttempts } from "../errors";
import { isApiPath, routedPath } from "../http/api-path";
import { countRequestError } from "./limits";

/*
 * Scanning the API (guessing routes, ids or tokens) answers mostly 404 and 401. Those answers
 * are counted per client IP (request.ip: TRUST_PROXY hops back) in the database's rate_limits,
 * as failed logins are (security/limits.ts), so all servers on one database count together:
 * past API_IP_MAX_ERRORS within LOGIN_LOCK_MINUTES, the IP's API requests answer 429 with
 * Retry-After (1104) until the window ends. Counted: 404s under /api (an unknown route or a
 * resource not found) and 401s of a refused token (forged, expired, of an ended session); not
 * a missing token, a wrong password (limited per account and IP already) or anything outside
 * /api (the web app's files and routes).
 *
 * A server learns of an IP's block when it counts an error of it (its own or after another
 * server's); from then on it refuses that IP's API requests from memory, without a query.
 */

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route limits its callers itself and answers unknown ids as often as known ones
     * (the public verification, verify/): its 404s are not counted here, so an unknown code
     * costs no more work than a known one.
     */
    ownRateLimit?: boolean;
  }
}

/** Blocked IPs remembered at most; expired ones leave first, then the oldest. */
const MAX_REMEMBERED = 10_000;

const HEALTH = "/api/health";

/** Does this answer count as a failed probe? */
function counts(request: FastifyRequest, reply: FastifyReply): boolean {
  if (!isApiPath(request.url) || request.routeOptions.config?.ownRateLimit) return false;
  return reply.statusCode === 404 || (reply.statusCode === 401 && request.tokenRefused);
}

export function registerScanLimit(app: FastifyInstance): void {
  /** IP → when its block ends (epoch ms), as far as this server knows. */
  const blocked = new Map<string, number>();
  const remember = (ip: string, until: number) => {
    if (blocked.size >= MAX_REMEMBERED) {
      const now = app.deps.now().getTime();
      for (const [key, end] of blocked) if (end <= now) blocked.delete(key);
      for (const key of blocked.keys()) {
        if (blocked.size < MAX_REMEMBERED) break;
        blocked.delete(key);
      }
    }
    blocked.delete(ip);
    blocked.set(ip, until);
  };

  app.addHook("onRequest", async (request) => {
    // The health check tells a scan nothing, and a monitor may share a blocked address.
    if (!isApiPath(request.url) || routedPath(request.url) === HEALTH) return;
    const until = blocked.get(request.ip);
    if (until === undefined) return;
    const ms = until - app.deps.now().getTime();
    if (ms <= 0) {
      blocked.delete(request.ip);
      return;
    }
    throw new TooManyAttempts(Math.ceil(ms / 1000), "Too many requests, please wait");
  });

  // Counted before the answer leaves: a burst of parallel probes is counted as it is answered.
  app.addHook("onSend", async (request, reply, payload) => {
    if (!counts(request, reply)) return payload;
    try {
      const until = await countRequestError(limitDeps(app.deps), request.ip);
      if (until) remember(request.ip, until.getTime());
    } catch (err) {
      // The answer goes out all the same; the next error is counted again.
      request.log.warn({ err }, "could not count an API error of the client");
    }
    return payload;
  });
}
