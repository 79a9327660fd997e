// `npm test`: every check, stopping at the first that fails; at the end (also after a failure)
// the time of each step, so a slow step shows where it is. `node scripts/test.mjs lint unit` runs
// only the named steps.
//
// The quick checks run first, one after the other. Then two lanes run side by side: the browser
// tests (whose Chromium and servers keep about one of two cores busy, much of their time waiting
// for pages) in one, the Vitest steps in the other, so the machine's second core is not idle for
// the browser step's five minutes. The browser lane prints as it goes; the Vitest lane's output is
// kept in test-results/<step>.log and printed when its step ends (all of it when it fails).
// TEST_LANES=1 runs every step one after the other, all printing as they go.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

/** [name, command, lane]: lane 0 the quick checks first, then lanes 1 and 2 side by side. */
const STEPS = [
  ["lint", "npm run lint", 0],
  ["typecheck", "npm run typecheck", 0],
  ["locales", "npm run check:locales", 0],
  ["drift", "npm run check:drift", 0],
  ["build + browser", "npm run e2e", 1],
  ["unit+api (PGlite)", "npm run test:unit", 2],
  ["time zones", "npm run test:time-zones", 2],
  ["api (PostgreSQL)", "npm run test:api:pg", 2],
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
const serial = process.env.TEST_LANES === "1";
const LOGS = "test-results";

const times = [];
let failed = null;
/** The running step of each lane, to stop when another lane's step fails. */
const running = new Set();

/** Runs one step; `quiet` keeps its output in a log file and prints it at the end. */
function run([name, command], quiet) {
  return new Promise((resolve) => {
    if (!quiet) console.log(`\n━━ ${name}: ${command}`);
    const start = performance.now();
    const log = quiet ? path.join(LOGS, `${name.replace(/[^a-z0-9]+/gi, "-").replace(/-$/, "")}.log`) : null;
    let out;
    if (log) {
      fs.mkdirSync(LOGS, { recursive: true });
      out = fs.openSync(log, "w");
    }
    const child = spawn(command, {
      shell: true,
      detached: true,
      stdio: log ? ["ignore", out, out] : ["inherit", "pipe", "pipe"],
    });
    // A printing step's output is kept as well: when it fails, its end is printed again last
    // (the other lane's log, printed when it stops, would otherwise bury the failure).
    const kept = [];
    if (!log) {
      for (const [stream, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        stream.on("data", (chunk) => {
          to.write(chunk);
          kept.push(chunk);
        });
      }
    }
    running.add(child);
    child.on("close", (code, signal) => {
      running.delete(child);
      const seconds = (performance.now() - start) / 1000;
      const ok = code === 0;
      const stopped = !ok && failed !== null;
      times.push({ name, seconds, ok, stopped, output: log ? null : Buffer.concat(kept).toString("utf8") });
      if (log) {
        fs.closeSync(out);
        const lines = fs.readFileSync(log, "utf8").trimEnd().split("\n");
        // All of a failed step's output; of a passed one, or one stopped because the other lane
        // failed, its end.
        const shown = ok || stopped ? lines.slice(-12) : lines;
        console.log(
          `\n━━ ${name}: ${command} — ${ok ? "passed" : "FAILED"} in ${seconds.toFixed(0)} s (${log}${ok ? ", its end:" : ":"})`,
        );
        console.log(shown.join("\n"));
      }
      if (!ok && failed === null && signal === null) {
        failed = name;
        // SIGINT, as a Ctrl-C: Playwright then stops the test servers it started (they run in a
        // process group of their own, which a SIGTERM to the lane's group left running on their
        // ports for the next run to trip over). Whatever still runs after 20 s is killed.
        for (const other of running) {
          try {
            process.kill(-other.pid, "SIGINT");
          } catch {}
          setTimeout(() => {
            try {
              process.kill(-other.pid, "SIGKILL");
            } catch {}
          }, 20_000).unref();
        }
      }
      resolve(ok);
    });
  });
}

async function lane(list, quiet) {
  for (const step of list) {
    if (failed !== null) return;
    await run(step, quiet);
  }
}

// The steps run in process groups of their own (to stop a lane's whole tree): pass a Ctrl-C on.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of running) {
      try {
        process.kill(-child.pid, signal);
      } catch {}
    }
    process.exit(130);
  });
}

const started = performance.now();
const cpu = machineCpu();
if (serial) {
  await lane(steps, false);
} else {
  await lane(
    steps.filter((s) => s[2] === 0),
    false,
  );
  if (failed === null) {
    await Promise.all([
      lane(
        steps.filter((s) => s[2] === 1),
        false,
      ),
      lane(
        steps.filter((s) => s[2] === 2),
        !steps.every((s) => s[2] === 2),
      ),
    ]);
  }
}

const wall = (performance.now() - started) / 1000;
console.log(`\nStep times (wall clock${serial ? "" : "; the browser lane and the Vitest lane ran side by side"}):`);
for (const t of times) {
  const mark = t.ok ? "" : t.stopped ? "  (stopped)" : "  (failed)";
  console.log(`  ${t.name.padEnd(20)} ${t.seconds.toFixed(0).padStart(5)} s${mark}`);
}
console.log(
  `  ${"total".padEnd(20)} ${wall.toFixed(0).padStart(5)} s   machine CPU ${(machineCpu() - cpu).toFixed(0)} s`,
);
if (failed) {
  const output = times.find((t) => t.name === failed)?.output;
  if (output) {
    // Playwright's and Vitest's summaries of what failed start with "  1) " or " FAIL "; else the end.
    const lines = output.trimEnd().split("\n");
    const start = lines.findIndex((l) => /^\s{2}1\) |^ FAIL /.test(stripVTControlCharacters(l)));
    const shown = (start >= 0 ? lines.slice(start) : lines.slice(-80)).slice(0, 400);
    console.error(`\n━━ ${failed}, what failed (again, from its output):\n${shown.join("\n")}`);
  }
  console.error(`\nFailed: ${failed}`);
  process.exit(1);
}
