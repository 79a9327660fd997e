// The unit tests and the API tests on PGlite, in the first of the two process time zones
// (scripts/test-zones.mjs). With DATABASE_URL set, the API tests run in full on PostgreSQL next
// (scripts/test-pg.mjs), and here only the PGlite leg (scripts/test-legs.mjs); without it, all of
// them run here. Arguments (file filters) run just those files.
import { spawnSync } from "node:child_process";
import { PGLITE_LEG } from "./test-legs.mjs";
import { FIRST_ZONE } from "./test-zones.mjs";

const args = process.argv.slice(2);
// Vitest's file filters apply to every project: the unit project's folders are named too.
const leg = args.length === 0 && process.env.DATABASE_URL ? ["packages/", "apps/web/", "scripts/", ...PGLITE_LEG] : [];
console.log(
  `Unit and API tests (PGlite) with TZ=${FIRST_ZONE}` +
    (leg.length > 0 ? `; API files: the PGlite leg (scripts/test-legs.mjs), all of them on PostgreSQL next` : ""),
);
const result = spawnSync("npx", ["vitest", "run", ...args, ...leg], {
  stdio: "inherit",
  env: { ...process.env, TZ: FIRST_ZONE },
});
process.exit(result.status ?? 1);
