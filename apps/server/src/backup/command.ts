/**
 * What `npm run backup` and `npm run restore` do; cli.ts runs it as the command, with its exit
 * code. Apart from the process so that backup.test.ts runs the commands in its own (a process
 * loads the server's code through tsx: seconds on a busy machine), all but one real one.
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

/**
 * Runs the command `args` ("backup FILE", "restore FILE [--check]") on the installation the
 * configuration `env` names, printing what it did with `print`. Throws (a BackupError with the
 * reason for the operator) when it cannot.
 */
export async function runBackupCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = console.log,
): Promise<void> {
  const [command, ...rest] = args;
  const file = rest.find((a) => !a.startsWith("--"));
  const unknown = rest.filter((a) => a.startsWith("--") && a !== "--check");
  if (!file || unknown.length > 0 || (command !== "backup" && command !== "restore")) throw new BackupError(USAGE);
  // npm run starts in the repository's root: a relative FILE is meant from where npm was called.
  const target = path.resolve(env.INIT_CWD ?? process.cwd(), file);
  if (command === "restore" && rest.includes("--check")) {
    const { header, manifest } = await checkBackup(target);
    print(
      `${file} is intact: CareCampus ${header.app.version} (${header.app.commit}), ${header.database}, ` +
        `written ${header.createdAt} at migration ${header.migration.tag}; ${describe(manifest)}.`,
    );
    // Intact, but maybe not for this version: say so now rather than at the restore.
    try {
      checkRestorable(header.migration);
    } catch (err) {
      print(`This CareCampus cannot restore it: ${(err as Error).message}`);
    }
    return;
  }
  if (command === "backup" && rest.includes("--check")) throw new BackupError(USAGE);
  const config = loadConfig(env);
  const installation = { databaseUrl: config.databaseUrl, dataDir: config.dataDir };
  if (command === "backup") {
    const { header, manifest } = await backupInstallation(installation, target);
    print(`Wrote ${file}: ${header.database} at migration ${header.migration.tag}, ${describe(manifest)}; checked.`);
  } else {
    await restoreBackup(target, installation, print);
  }
}
