// `npm test`: every check, one step after the other, stopping at the first that fails; at the end
// (also after a failure) the time of each step, so a slow step shows where it is.
// `node scripts/test.mjs lint unit` runs only the named steps, in their order here.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

/** [name, command, what it runs]. The browser step builds what `npm start` runs, then tests it. */
const STEPS = [
  ["lint", "npm run lint", "Biome, feature imports"],
  ["typecheck", "npm run typecheck", "tsc over the five projects"],
  ["locales", "npm run check:locales", "five languages, same keys"],
  ["drift", "npm run check:drift", "migrations match the schema"],
  ["unit+api (PGlite)", "npm run test:unit", "Vitest: unit and API tests on PGlite"],
  ["time zones", "npm run test:time-zones", "date-sensitive tests in the second zone"],
  ["api (PostgreSQL)", "npm run test:api:pg", "Vitest: API tests on DATABASE_URL"],
  ["build + browser", "npm run e2e", "Vite and esbuild, then Playwright in Chromium"],
];

/** Busy CPU seconds of the whole machine (user, nice, system, irq, softirq), from /proc/stat. */
function machineCpu() {
  try {
    const [, user, nice, system, , , irq, softirq] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].split(/\s+/);
    return (Number(user) + Number(nice) + Number(system) + Number(irq) + Number(softirq)) / 100;
  } catch {
    return Number.NaN;
  }
}

// The project needs Node >= 22.12 (package.json engines), which npm does not enforce: on Node 20
// the component tests' jsdom cannot load undici, and Vitest reports that as unhandled errors,
// not as a clear failure. Say so before anything runs.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `npm test needs Node.js >= 22.12; this is ${process.version}. ` +
      "`. scripts/node24.sh` puts Node 24 first on PATH for this shell (.ci/run does the same).",
  );
  process.exit(1);
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !STEPS.some(([name]) => name.startsWith(w)));
if (unknown.length > 0) {
  console.error(`No such step: ${unknown.join(", ")}. Steps: ${STEPS.map(([n]) => n).join(", ")}`);
  process.exit(2);
}
const steps = wanted.length === 0 ? STEPS : STEPS.filter(([name]) => wanted.some((w) => name.startsWith(w)));

const times = [];
let failed = null;
for (const [name, command] of steps) {
  console.log(`\n━━ ${name}: ${command}`);
  const start = performance.now();
  const cpu = machineCpu();
  const run = spawnSync(command, { stdio: "inherit", shell: true });
  times.push({ name, seconds: (performance.now() - start) / 1000, cpu: machineCpu() - cpu });
  if (run.status !== 0) {
    failed = name;
    break;
  }
}

const total = times.reduce((sum, t) => sum + t.seconds, 0);
console.log("\nStep times (wall clock; CPU: the whole machine's busy seconds meanwhile, on its cores):");
for (const t of times) {
  console.log(`  ${t.name.padEnd(20)} ${t.seconds.toFixed(0).padStart(5)} s   CPU ${t.cpu.toFixed(0).padStart(5)} s`);
}
console.log(`  ${"total".padEnd(20)} ${total.toFixed(0).padStart(5)} s`);
if (failed) {
  console.error(`\nFailed: ${failed}`);
  process.exit(1);
}
