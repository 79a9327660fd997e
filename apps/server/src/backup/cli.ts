/**
 * npm run backup -- FILE            a consistent backup of this installation (running or not)
 * npm run restore -- FILE           restores FILE into an empty installation
 * npm run restore -- FILE --check   reads FILE and checks every checksum, restoring nothing
 *
 * The installation is the one the server's configuration names: DATABASE_URL, else DATA_DIR.
 * Exit code 0 on success, 1 with the reason on standard error otherwise. The work is in
 * command.ts.
 */
import { runBackupCommand } from "./command";

runBackupCommand(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
