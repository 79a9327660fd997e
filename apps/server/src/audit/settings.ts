import { desc, eq } from "drizzle-orm";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { auditLog } from "../db/schema";
import { canonicalJson, recordAudit } from "./record";

/**
 * The installation's settings as the audit trail keeps them at a start: what decides who may do
 * what and how long things last. Never a secret: JWT_SECRET, ADMIN_PASSWORD, the database and
 * SMTP addresses (they may hold a password) and the partner's client secret stay out; of those
 * only whether they are set is recorded.
 */
export function recordedSettings(config: Config): Record<string, unknown> {
  return {
    database: config.databaseUrl ? "postgresql" : "pglite",
    demo_data: config.demoData,
    max_users: config.maxUsers ?? null,
    max_facilities: config.maxFacilities ?? null,
    token_lifetime_seconds: config.tokenLifetimeSeconds,
    session_max_seconds: config.sessionMaxSeconds,
    limits: config.limits,
    media_quota_bytes: config.mediaQuotaBytes,
    trust_proxy_hops: config.trustProxyHops,
    notification_job: config.notificationJob,
    workers: config.workers,
    smtp: config.smtpUrl !== undefined,
    smtp_from: config.smtpFrom,
    jwt_secret_configured: config.jwtSecret !== undefined,
    partner: config.partner ? { url: config.partner.url, client_id: config.partner.clientId } : null,
    settings: config.settings,
  };
}

/**
 * At a start: records the settings (settings.started, by the system) unless the last such entry
 * holds the same, so N servers starting on one database write one entry. Compared under the
 * audit lock, so two servers starting together cannot both find the entry missing.
 */
export async function recordStartSettings(db: Db, config: Config, now: Date): Promise<boolean> {
  const data = recordedSettings(config);
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, "audit");
    const [last] = await tx
      .select({ data: auditLog.data })
      .from(auditLog)
      .where(eq(auditLog.kind, "settings.started"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    if (last && canonicalJson(last.data) === canonicalJson(JSON.parse(JSON.stringify(data)))) return false;
    await recordAudit(tx, { kind: "settings.started", actor: null, data }, now);
    return true;
  });
}
