// Runs the API tests a second time on PostgreSQL when DATABASE_URL is set (spec: tests on both).
import { spawnSync } from "node:child_process";

if (!process.env.DATABASE_URL) {
  console.log("DATABASE_URL is not set: the PostgreSQL leg of the API tests is skipped.");
  process.exit(0);
}
const result = spawnSync("npx", ["vitest", "run", "--project", "api"], {
  stdio: "inherit",
  env: { ...process.env, TEST_DB: "pg" },
});
process.exit(result.status ?? 1);
