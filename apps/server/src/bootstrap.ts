import fs from "node:fs";
import type { AppDeps } from "./app";
import { recordStartSettings } from "./audit/settings";
import { createTokenService, loadSecret } from "./auth/tokens";
import type { Config } from "./config";
import { loadPackage } from "./content/package";
import { currentContentVersion, importPackage } from "./content/service";
import { type Db, openConfiguredDatabase } from "./db/client";
import { lockForTransaction } from "./db/locks";
import { seedDemoCalendar } from "./demo/calendar";
import { seedDemoColleagues } from "./demo/colleagues";
import { type SeedResult, seedDemoCertificates, seedIfEmpty } from "./demo/seed";
import { seedDemoWiki } from "./demo/wiki";
import { createMailer } from "./mail/mailer";
import { serverPath } from "./paths";
import { readVersion } from "./system/version";

export const DEMO_CONTENT = serverPath("../../content/demo");

/**
 * Everything a first start writes: the reference lists, the demo users or the first
 * superuser, the demo content, and the demo certificates, colleagues and dates. One
 * transaction under an advisory lock: a kill half-way leaves nothing (the next start seeds
 * again), and of several servers starting together one seeds while the others wait and then
 * find the data. `afterStep` (tests) runs between the steps.
 */
export async function seedFirstStart(
  db: Db,
  config: Pick<Config, "demoData" | "adminPassword" | "timeZone">,
  now: Date,
  afterStep: (step: "users" | "content") => Promise<void> = async () => {},
): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, "seed");
    const seed = await seedIfEmpty(tx, config.demoData, config.adminPassword);
    await afterStep("users");
    // A first start gets the demo content package (ARCHITECTURE decision 13).
    if ((await currentContentVersion(tx)) === null && fs.existsSync(DEMO_CONTENT)) {
      const result = await importPackage(tx, loadPackage(DEMO_CONTENT), now);
      seed.lines.push(
        `Imported the demo content ${result.version}: ${result.topics} topics, ${result.trainings} trainings, ${result.wikiPages} wiki pages.`,
      );
    }
    await afterStep("content");
    // Needs the users and the content: after both.
    if (seed.created === "demo") {
      seed.lines.push(...(await seedDemoCertificates(tx, now, config.timeZone)));
      await seedDemoColleagues(tx, now, config.timeZone);
      await seedDemoCalendar(tx, now, config.timeZone);
      await seedDemoWiki(tx, now);
      seed.lines.push(
        "Demo colleagues: 5 in Haus Sonnenhof, 3 in Haus Lindenhof, with certificates in every state and open help requests; training dates in the calendar.",
      );
    }
    return seed;
  });
}

/** Opens the database (migrating it), seeds an empty one, and wires the services. */
export async function createDeps(
  config: Config,
  log: (err: unknown) => void,
): Promise<{ deps: AppDeps; seed: SeedResult }> {
  const database = await openConfiguredDatabase(config);
  try {
    const seed = await seedFirstStart(database.db, config, new Date());
    // The audit trail keeps the settings each start ran with (decision 21), once per change.
    await recordStartSettings(database.db, config, new Date());
    const now = () => new Date();
    const deps: AppDeps = {
      config,
      database,
      tokens: createTokenService(
        await loadSecret(config.jwtSecret, {
          dataDir: config.dataDir,
          ...(config.databaseUrl ? { db: database.db } : {}),
        }),
        config.tokenLifetimeSeconds,
        now,
        config.sessionMaxSeconds,
      ),
      mailer: createMailer(config.smtpUrl, config.smtpFrom, log),
      version: readVersion(),
      now,
    };
    return { deps, seed };
  } catch (err) {
    await database.close();
    throw err;
  }
}
