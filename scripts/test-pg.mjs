// Runs the API tests a second time on PostgreSQL when DATABASE_URL is set (spec: tests on both),
// in the second process time zone (scripts/test-zones.mjs).
import { spawnSync } from "node:child_process";
import { SECOND_ZONE } from "./test-zones.mjs";

if (!process.env.DATABASE_URL) {
  console.log("DATABASE_URL is not set: the PostgreSQL leg of the API tests is skipped.");
  process.exit(0);
}
console.log(`API tests on PostgreSQL with TZ=${SECOND_ZONE}`);
const result = spawnSync("npx", ["vitest", "run", "--project", "api"], {
  stdio: "inherit",
  env: { ...process.env, TEST_DB: "pg", TZ: SECOND_ZONE },
});
process.exit(result.status ?? 1);
