/**
 * npm run admin:reset-password -- LOGIN: gives the user a new generated password and prints it
 * (a lost first superuser password, or an administrator locked out). Their sessions end and
 * their failed-login lock is lifted. On PGlite, stop the server first (one process per data
 * directory); on PostgreSQL it may run beside the servers. The audit trail records the reset.
 */
import { loadConfig } from "../config";
import { openConfiguredDatabase } from "../db/client";
import { findUserByLogin, setGeneratedPassword } from "./service";

async function main(): Promise<void> {
  const login = process.argv[2];
  if (!login) throw new Error("usage: npm run admin:reset-password -- LOGIN");
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const user = await findUserByLogin(database.db, login);
    const issued = user ? await setGeneratedPassword(database.db, user.id, true) : undefined;
    if (!issued) throw new Error(`No user with the login '${login}'.`);
    console.log(`New password of '${issued.login}': ${issued.password}`);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
