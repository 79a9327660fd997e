// One clock (ARCHITECTURE decision 16): the unit and PGlite leg runs with TZ in UTC+14
// (scripts/test-unit.mjs), the PostgreSQL leg in UTC-8/-7 (scripts/test-pg.mjs). What the
// PostgreSQL leg does not run again in the second zone runs here: the date-sensitive unit tests,
// and without DATABASE_URL the date-sensitive API tests too. Each must pass in both zones.
import { spawnSync } from "node:child_process";
import { DATE_SENSITIVE_API } from "./test-legs.mjs";
import { SECOND_ZONE } from "./test-zones.mjs";

const UNIT = [
  "packages/contract/src/rules/calendar.test.ts",
  "packages/contract/src/rules/rules.test.ts",
  "packages/contract/src/settings.test.ts",
  "apps/web/src/features/notifications/messages.test.ts",
];

const files = process.env.DATABASE_URL ? UNIT : [...UNIT, ...DATE_SENSITIVE_API];
console.log(
  `Date-sensitive tests with TZ=${SECOND_ZONE}${process.env.DATABASE_URL ? " (the API's run in the PostgreSQL leg)" : ""}:`,
);
const run = spawnSync("npx", ["vitest", "run", ...files], {
  stdio: "inherit",
  env: { ...process.env, TZ: SECOND_ZONE },
});
if (run.status !== 0) {
  console.error(
    `The date-sensitive tests fail with TZ=${SECOND_ZONE}: a calendar day depends on the process's time zone.`,
  );
}
process.exit(run.status ?? 1);
