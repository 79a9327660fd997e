import crypto from "node:crypto";
import { buildApp } from "./app";
import { createDeps } from "./bootstrap";
import { type Config, ConfigError, loadConfig } from "./config";
import { DataDirInUseError, queryStats } from "./db/client";
import { issuePendingAdminPassword } from "./demo/seed";
import { type JobRunner, startJobRunner } from "./jobs/runner";

async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const peer = await startPeer(config);
  const { deps, seed } = await createDeps(config, (err) => console.error(err));
  const app = await buildApp(deps, { logger: true, serveWeb: true });

  let jobs: JobRunner | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: draining requests");
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await peer?.close();
      await jobs?.stop();
      await deps.database.close();
      clearTimeout(force);
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  if (config.queryStats) {
    // For `npm run bench`: what the server spent so far, read before and after a load.
    process.on("SIGUSR2", () => {
      const cpu = process.cpuUsage();
      console.log(`QUERY_STATS ${JSON.stringify({ queries: queryStats.queries, cpuMicros: cpu.user + cpu.system })}`);
    });
  }

  await app.listen({ port: config.port, host: config.host });
  // Only now, with the server reachable, is a generated first password worth printing.
  const adminPassword = await issuePendingAdminPassword(deps.database.db);
  // Not in buildApp: API tests get no timers. NOTIFICATION_JOB=false leaves the jobs (expiry
  // notices, mail sending) to other servers.
  if (config.notificationJob) jobs = startJobRunner(deps, app.log);
  const db = deps.database.kind === "pglite" ? `PGlite in ${config.dataDir}` : "PostgreSQL (DATABASE_URL)";
  const lines = [
    "",
    `CareCampus ${deps.version.version} (${deps.version.short_hash}) is running on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${config.port}`,
    `Database: ${db}. Started in ${Math.round(performance.now() - started)} ms.`,
    ...(peer ? [`Reference partner (test peer) for external courses: ${peer.url}`] : []),
    ...seed.lines,
    ...adminPassword,
    "",
  ];
  console.log(lines.join("\n"));
}

/**
 * PARTNER_PEER=true (demo and browser tests): the reference partner, a test peer that is no
 * part of the product (partner-peer/), runs in this process and becomes the configured
 * partner unless EXTERNAL_COURSES_URL names another. Loaded only then, by a name the bundle
 * leaves alone.
 */
async function startPeer(config: Config): Promise<{ url: string; close(): Promise<void> } | null> {
  if (!config.partnerPeer) return null;
  const name = "@carecampus/partner-peer";
  const { startPartnerPeer } = (await import(name)) as typeof import("@carecampus/partner-peer");
  const secret = crypto.randomBytes(24).toString("base64url");
  const peer = await startPartnerPeer({ port: config.partnerPeer.port, clientId: "carecampus", clientSecret: secret });
  const { port: _port, ...calls } = config.partnerPeer;
  config.partner ??= { url: peer.url, clientId: "carecampus", clientSecret: secret, ...calls };
  return peer;
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirInUseError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
