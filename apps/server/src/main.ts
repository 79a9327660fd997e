import cluster from "node:cluster";
import crypto from "node:crypto";
import { buildApp } from "./app";
import { type BackupChannel, startBackupChannel } from "./backup/channel";
import { createDeps } from "./bootstrap";
import { type Config, ConfigError, loadConfig } from "./config";
import { DataDirInUseError, queryStats } from "./db/client";
import { issuePendingAdminPassword } from "./demo/seed";
import { drainServer } from "./http/drain";
import { type JobRunner, startJobRunner } from "./jobs/runner";
import { useTestPasswordHashing } from "./security/passwords";
import { SsoProviderSchema } from "./sso/settings";
import { STATS_REPLY, STATS_REQUEST, superviseWorkers } from "./system/cluster";

/** How long requests already running may take to finish after SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000;

/** With WORKERS=N (cluster.ts): which of the N this process is, 1-based; the single server is 1. */
const workerIndex = Number(process.env.CC_WORKER ?? 1);

async function main(config: Config): Promise<void> {
  const started = performance.now();
  if (config.testPasswordHashing) {
    useTestPasswordHashing();
    console.warn("TEST_PASSWORD_HASHING=true: new passwords get cheap hashes. For test servers only.");
  }
  const peer = await startPeer(config);
  const oidcPeer = await startOidcPeer(config);
  const { deps, seed } = await createDeps(config, (err) => console.error(err));
  const app = await buildApp(deps, { logger: true, serveWeb: true });

  let jobs: JobRunner | null = null;
  let backupChannel: BackupChannel | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: draining requests");
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 5_000).unref();
    try {
      // Requests already sent are answered (served, or 503 with Retry-After), none is reset.
      if (!(await drainServer(app, SHUTDOWN_GRACE_MS))) app.log.warn("shutdown: requests still running were cut off");
      await peer?.close();
      await oidcPeer?.peer.close();
      await backupChannel?.close();
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
    // For `npm run bench`: what the server spent so far, read before and after a load (of a
    // worker: asked by the primary, cluster.ts).
    const stats = () => {
      const cpu = process.cpuUsage();
      return { queries: queryStats.queries, cpuMicros: cpu.user + cpu.system };
    };
    process.on("SIGUSR2", () => console.log(`QUERY_STATS ${JSON.stringify(stats())}`));
    process.on("message", (m: { type?: string }) => {
      if (m?.type === STATS_REQUEST) process.send?.({ type: STATS_REPLY, ...stats() });
    });
  }

  await app.listen({ port: config.port, host: config.host });
  // PGlite's directory opens in this process only: `npm run backup` asks through this channel
  // (backup/channel.ts: 127.0.0.1 only, a secret in DATA_DIR). PostgreSQL is read directly.
  if (deps.database.kind === "pglite") {
    backupChannel = await startBackupChannel(deps.database, config.dataDir, (message, err) =>
      app.log.error({ err }, message),
    );
  }
  // Only now, with the server reachable, is a generated first password worth printing.
  const adminPassword = await issuePendingAdminPassword(deps.database.db);
  // Not in buildApp: API tests get no timers. NOTIFICATION_JOB=false leaves the jobs (expiry
  // notices, mail sending) to other servers; of several workers the first runs them.
  if (config.notificationJob && workerIndex === 1) jobs = startJobRunner(deps, app.log);
  const db = deps.database.kind === "pglite" ? `PGlite in ${config.dataDir}` : "PostgreSQL (DATABASE_URL)";
  const banner =
    workerIndex === 1
      ? [
          `CareCampus ${deps.version.version} (${deps.version.short_hash}) is running on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${config.port}${config.workers > 1 ? ` in ${config.workers} worker processes` : ""}`,
          `Database: ${db}. Started in ${Math.round(performance.now() - started)} ms.`,
          ...(peer ? [`Reference partner (test peer) for external courses: ${peer.url}`] : []),
          ...(oidcPeer ? oidcPeer.lines : []),
        ]
      : [];
  // Of several workers, the one that seeded (or issued the first password) says so.
  const lines = [...banner, ...seed.lines, ...adminPassword];
  if (lines.length > 0) console.log(["", ...lines, ""].join("\n"));
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

/**
 * OIDC_PEER=true (demo and browser tests): the reference identity provider, a test peer that is
 * no part of the product (oidc-peer/), runs in this process and becomes single sign-on provider
 * `demo` for the demo's first facility (OIDC_PEER_FACILITY). Loaded only then, by a name the bundle leaves alone.
 */
async function startOidcPeer(config: Config): Promise<{ peer: { close(): Promise<void> }; lines: string[] } | null> {
  if (!config.oidcPeer) return null;
  const name = "@carecampus/oidc-peer";
  const { startOidcPeer: start, DEMO_ACCOUNTS } = (await import(name)) as typeof import("@carecampus/oidc-peer");
  const secret = crypto.randomBytes(24).toString("base64url");
  const id = "demo";
  const peer = await start({
    port: config.oidcPeer.port,
    clients: [
      {
        client_id: "carecampus",
        client_secret: secret,
        client_name: "CareCampus",
        redirect_uris: [`${config.publicUrl}/api/auth/sso/${id}/callback`],
        post_logout_redirect_uris: [`${config.publicUrl}/login`],
      },
    ],
  });
  config.ssoProviders = [
    SsoProviderSchema.parse({
      id,
      name: "Demo-Anmeldedienst",
      issuer: peer.issuer,
      client_id: "carecampus",
      client_secret: secret,
      facility: config.oidcPeer.facility,
      subject_claims: ["tid", "oid"],
      role_mapping: { "CareCampus.Supervisor": ["supervisor", "employee"] },
      link_by_email: true,
    }),
    ...config.ssoProviders.filter((p) => p.id !== id),
  ];
  return {
    peer,
    lines: [
      `Reference identity provider (test peer) for single sign-on: ${peer.issuer} (provider "${id}", ${config.oidcPeer.facility})`,
      ...DEMO_ACCOUNTS.map(
        (a) =>
          `  ${a.login} / ${a.password} (${a.claims.name}${(a.claims.roles as string[]).length ? `, roles ${(a.claims.roles as string[]).join(", ")}` : ""})`,
      ),
    ],
  };
}

async function start(): Promise<void> {
  const config = loadConfig();
  if (config.workers > 1 && cluster.isPrimary) superviseWorkers(config);
  else await main(config);
}

start().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirInUseError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
