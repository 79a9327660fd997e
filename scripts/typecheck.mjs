// `npm run typecheck`: tsc over the five projects, as many at a time as the machine has cores
// (tsc itself uses one), the largest first. Each project's errors print together when it ends.
import { spawn } from "node:child_process";
import os from "node:os";

const PROJECTS = ["apps/web", "apps/server", "packages/contract", "e2e", "bench", "apps/web/src/sw"];
const width = Math.max(1, Math.min(os.availableParallelism(), PROJECTS.length));

function check(project) {
  return new Promise((resolve) => {
    const child = spawn("npx", ["tsc", "-p", project], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.on("close", (code) => {
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? "ok" : "errors"}\n${out}`);
      resolve(code === 0);
    });
  });
}

const queue = [...PROJECTS];
const results = await Promise.all(
  Array.from({ length: width }, async () => {
    let ok = true;
    for (let project = queue.shift(); project; project = queue.shift()) ok = (await check(project)) && ok;
    return ok;
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
