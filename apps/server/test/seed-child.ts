// A first start that is killed half-way (bootstrap.test.ts): seeds until the users are
// written, says so on stdout, and waits to be killed with its transaction open.
import { seedFirstStart } from "../src/bootstrap";
import { openDatabase } from "../src/db/client";

const [target] = process.argv.slice(2);
const database = await openDatabase(
  target?.startsWith("postgres") ? { databaseUrl: target } : { pgliteDir: target, fsync: true },
);
await seedFirstStart(
  database.db,
  { demoData: true, adminPassword: undefined, timeZone: "Europe/Berlin" },
  new Date(),
  async (step) => {
    if (step !== "content") return;
    console.log("half-way");
    await new Promise(() => {});
  },
);
