/** npm run content:import -- DIR: validates a content package and imports it (FORMAT.md). */
import path from "node:path";
import { loadConfig } from "../config";
import { openConfiguredDatabase } from "../db/client";
import { ContentError, loadPackage } from "./package";
import { importPackage } from "./service";

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new ContentError(["usage: npm run content:import -- DIR"]);
  const started = performance.now();
  const pkg = loadPackage(path.resolve(dir));
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const result = await importPackage(database.db, pkg);
    const ms = Math.round(performance.now() - started);
    if (result.status === "unchanged") {
      console.log(`Content version ${result.version} is already imported; nothing changed.`);
    } else {
      console.log(
        `Imported content ${result.version}${result.previous ? ` (was ${result.previous})` : ""}: ` +
          `${result.topics} topics, ${result.trainings} trainings, ${result.questions} questions, ${result.media} media files, ${result.wikiPages} wiki pages (${result.wikiRevisions} new revisions) in ${ms} ms.`,
      );
    }
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
