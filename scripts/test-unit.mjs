// The unit and API tests (PGlite) in the first of the two process time zones (scripts/test-zones.mjs).
import { spawnSync } from "node:child_process";
import { FIRST_ZONE } from "./test-zones.mjs";

console.log(`Unit and API tests (PGlite) with TZ=${FIRST_ZONE}`);
const result = spawnSync("npx", ["vitest", "run", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, TZ: FIRST_ZONE },
});
process.exit(result.status ?? 1);
