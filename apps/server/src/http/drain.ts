import net from "node:net";
import { ErrorCode } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { errorBody } from "../errors";

/*
 * Shutting down without dropping requests (issue 27). Node's server.close() (and Fastify's close,
 * which calls it) closes every connection that is idle at that moment; a keep-alive connection
 * on which the client has just sent a request that the server has not read yet counts as idle,
 * and the request is lost to a reset. So on SIGTERM (main.ts):
 *  1. No new connections are accepted; requests that arrive from now on (on connections already
 *     open) answer 503 with Retry-After and Connection: close (spec §8 body, 1108), and answers
 *     to requests already running close their connection after them.
 *  2. The requests already running finish, for at most the grace period.
 *  3. Once nothing has run for a moment (so that requests already sent have been read and
 *     answered), the idle connections are closed, and the app with them.
 */

/** Retry-After of the 503 a shutting-down server answers: another server (or this one, restarted) serves soon. */
const RETRY_AFTER_SECONDS = 2;
/** How long nothing must have run before the idle connections are closed. */
const SETTLE_MS = 100;

declare module "fastify" {
  interface FastifyInstance {
    /** Set when shutdown began (drainServer): new requests answer 503. */
    draining: boolean;
  }
}

/** Requests of a server being answered now, and how many it ever got. */
const activity = new WeakMap<object, { running: number; seen: number }>();

/** The hooks of a draining server (registered first in buildApp, so they run before any other). */
export function registerDrain(app: FastifyInstance): void {
  app.decorate("draining", false);
  const counts = { running: 0, seen: 0 };
  activity.set(app, counts);
  app.server.on("request", (_req, res) => {
    counts.running += 1;
    counts.seen += 1;
    res.once("close", () => {
      counts.running -= 1;
    });
  });
  app.addHook("onRequest", async (_request, reply) => {
    if (!app.draining) return;
    return reply
      .status(503)
      .header("connection", "close")
      .header("retry-after", String(RETRY_AFTER_SECONDS))
      .send(errorBody(ErrorCode.busy, 503, "The server is shutting down: try again in a moment"));
  });
  app.addHook("onSend", async (_request, reply, payload) => {
    if (app.draining) reply.header("connection", "close");
    return payload;
  });
}

/**
 * Steps 1-3 above, then `app.close()`. Resolves true when every running request finished within
 * `graceMs`, false when the rest were cut off.
 */
export async function drainServer(app: FastifyInstance, graceMs: number): Promise<boolean> {
  const server = app.server;
  const counts = activity.get(app) ?? { running: 0, seen: 0 };
  app.draining = true;
  // Stops accepting connections, without closing the idle ones as http's close() would.
  if (server.listening) net.Server.prototype.close.call(server);
  const deadline = Date.now() + graceMs;
  let finished = true;
  for (;;) {
    const before = counts.seen;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    // After the timer, one turn of the event loop: sockets with data waiting are read first.
    await new Promise((resolve) => setImmediate(resolve));
    if (counts.running === 0 && counts.seen === before) break;
    if (Date.now() >= deadline) {
      finished = false;
      break;
    }
  }
  if (finished) server.closeIdleConnections();
  else server.closeAllConnections();
  await app.close();
  return finished;
}
