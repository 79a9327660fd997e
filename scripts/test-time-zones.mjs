// One clock (ARCHITECTURE decision 16): the date-sensitive tests run again under two far-apart
// process time zones and must give the same results. Every calendar day is counted in
// TIME_ZONE (Europe/Berlin in the tests), so the process's TZ may change nothing.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ZONES = ["Pacific/Kiritimati", "America/Los_Angeles"]; // UTC+14 and UTC-8/-7: a day apart
const FILES = [
  "packages/contract/src/rules/calendar.test.ts",
  "packages/contract/src/rules/rules.test.ts",
  "packages/contract/src/settings.test.ts",
  "apps/web/src/features/notifications/messages.test.ts",
  "apps/server/src/notifications/expiry-job.test.ts",
  "apps/server/src/overview/overview.test.ts",
  "apps/server/src/overview/xlsx.test.ts",
  "apps/server/src/jobs/runner.test.ts",
  "apps/server/src/calendar/events.test.ts",
  "apps/server/src/calendar/ics.test.ts",
  "apps/server/src/calendar/reminders.test.ts",
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-tz-"));
const outcomes = [];
for (const zone of ZONES) {
  const offset = spawnSync(
    process.execPath,
    ["-e", "console.log(-new Date('2026-11-22T12:00:00Z').getTimezoneOffset() / 60)"],
    {
      env: { ...process.env, TZ: zone },
      encoding: "utf8",
    },
  ).stdout.trim();
  console.log(`\nDate-sensitive tests with TZ=${zone} (UTC${Number(offset) >= 0 ? "+" : ""}${offset}):`);
  const outputFile = path.join(dir, `${zone.replace("/", "_")}.json`);
  const run = spawnSync(
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${outputFile}`, ...FILES],
    {
      stdio: "inherit",
      env: { ...process.env, TZ: zone },
    },
  );
  if (run.status !== 0) {
    console.error(`The date-sensitive tests fail with TZ=${zone}: a calendar day depends on the process's time zone.`);
    process.exit(run.status ?? 1);
  }
  const report = JSON.parse(fs.readFileSync(outputFile, "utf8"));
  outcomes.push(
    report.testResults
      .flatMap((file) =>
        file.assertionResults.map((t) => `${path.relative(process.cwd(), file.name)} › ${t.fullName}: ${t.status}`),
      )
      .sort(),
  );
}
fs.rmSync(dir, { recursive: true, force: true });
const [a, b] = outcomes;
const differ = a.filter((line) => !b.includes(line)).concat(b.filter((line) => !a.includes(line)));
if (differ.length > 0) {
  console.error(`The results differ between ${ZONES.join(" and ")}:\n${differ.join("\n")}`);
  process.exit(1);
}
console.log(`\nSame results in ${ZONES.join(" and ")}: ${a.length} date-sensitive tests.`);
