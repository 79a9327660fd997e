/**
 * npm run audit:verify: recomputes the audit trail's hash chain in the configured database
 * (DATABASE_URL, else the PGlite data in DATA_DIR) and prints whether it is intact; exit code 1
 * when it is not, naming the first entry that does not hold. On PGlite, stop the server first
 * (one process per data directory); on PostgreSQL it may run beside the servers.
 */
import { loadConfig } from "../config";
import { openConfiguredDatabase } from "../db/client";
import { verifyAuditChain } from "./record";

async function main(): Promise<number> {
  const database = await openConfiguredDatabase(loadConfig());
  try {
    const result = await verifyAuditChain(database.db);
    if (result.intact) {
      console.log(`Audit trail intact: ${result.entries} entries.`);
      return 0;
    }
    console.error(`Audit trail BROKEN at entry ${result.firstBroken} (${result.entries} entries).`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
