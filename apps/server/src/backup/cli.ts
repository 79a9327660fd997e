/**
 * npm run backup -- FILE            a consistent backup of this installation (running or not)
 * npm run restore -- FILE           restores FILE into an empty installation
 * npm run restore -- FILE --check   reads FILE and checks every checksum, restoring nothing
 *
 * The installation is the one the server's configuration names: DATABASE_URL, else DATA_DIR.
 * Exit code 0 on success, 1 with the reason on standard error otherwise.
 */
import path from "node:path";
import { loadConfig } from "../config";
import { BackupError, checkBackup } from "./format";
import { checkRestorable } from "./migrations";
import { restoreBackup } from "./restore";
import { backupInstallation } from "./service";

const USAGE = "usage: npm run backup -- FILE | npm run restore -- FILE [--check]";

function describe(manifest: { tables: { rows: number }[] }): string {
  return `${manifest.tables.length} tables, ${manifest.tables.reduce((n, t) => n + t.rows, 0)} rows`;
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith("--"));
  const unknown = args.filter((a) => a.startsWith("--") && a !== "--check");
  if (!file || unknown.length > 0 || (command !== "backup" && command !== "restore")) throw new BackupError(USAGE);
  // npm run starts in the repository's root: a relative FILE is meant from where npm was called.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  if (command === "restore" && args.includes("--check")) {
    const { header, manifest } = await checkBackup(target);
    console.log(
      `${file} is intact: CareCampus ${header.app.version} (${header.app.commit}), ${header.database}, ` +
        `written ${header.createdAt} at migration ${header.migration.tag}; ${describe(manifest)}.`,
    );
    // Intact, but maybe not for this version: say so now rather than at the restore.
    try {
      checkRestorable(header.migration);
    } catch (err) {
      console.log(`This CareCampus cannot restore it: ${(err as Error).message}`);
    }
    return;
  }
  if (command === "backup" && args.includes("--check")) throw new BackupError(USAGE);
  const config = loadConfig();
  const installation = { databaseUrl: config.databaseUrl, dataDir: config.dataDir };
  if (command === "backup") {
    const { header, manifest } = await backupInstallation(installation, target);
    console.log(
      `Wrote ${file}: ${header.database} at migration ${header.migration.tag}, ${describe(manifest)}; checked.`,
    );
  } else {
    await restoreBackup(target, installation);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
