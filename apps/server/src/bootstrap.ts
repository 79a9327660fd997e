import fs from "node:fs";
import type { AppDeps } from "./app";
import { createTokenService, loadSecret } from "./auth/tokens";
import type { Config } from "./config";
import { loadPackage } from "./content/package";
import { currentContentVersion, importPackage } from "./content/service";
import { openDatabase } from "./db/client";
import { seedDemoCalendar } from "./demo/calendar";
import { seedDemoColleagues } from "./demo/colleagues";
import { type SeedResult, seedDemoCertificates, seedIfEmpty } from "./demo/seed";
import { createMailer } from "./mail/mailer";
import { serverPath } from "./paths";
import { readVersion } from "./system/version";

export const DEMO_CONTENT = serverPath("../../content/demo");

/** Opens the database (migrating it), seeds an empty one, and wires the services. */
export async function createDeps(
  config: Config,
  log: (err: unknown) => void,
): Promise<{ deps: AppDeps; seed: SeedResult }> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.databaseUrl ? undefined : config.dataDir,
    fsync: config.pgliteFsync,
  });
  try {
    const seed = await seedIfEmpty(database.db, config.demoData, config.adminPassword);
    // A first start gets the demo content package (ARCHITECTURE decision 13).
    if ((await currentContentVersion(database.db)) === null && fs.existsSync(DEMO_CONTENT)) {
      const result = await importPackage(database.db, loadPackage(DEMO_CONTENT));
      seed.lines.push(
        `Imported the demo content ${result.version}: ${result.topics} topics, ${result.trainings} trainings.`,
      );
    }
    // Needs the users and the content: after both.
    if (seed.created === "demo") {
      seed.lines.push(...(await seedDemoCertificates(database.db, new Date(), config.timeZone)));
      await seedDemoColleagues(database.db, new Date(), config.timeZone);
      await seedDemoCalendar(database.db, new Date(), config.timeZone);
      seed.lines.push(
        "Demo colleagues: 5 in Haus Sonnenhof, 3 in Haus Lindenhof, with certificates in every state and open help requests; training dates in the calendar.",
      );
    }
    const now = () => new Date();
    const deps: AppDeps = {
      config,
      database,
      tokens: createTokenService(loadSecret(config.jwtSecret, config.dataDir), config.tokenLifetimeSeconds, now),
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
