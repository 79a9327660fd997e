// `npm run typecheck`: tsc over the projects, one after another. TypeScript 7's tsc checks with
// several threads of its own: two at a time on two cores took longer and more CPU than one after
// another (measured 2026-12-07: 36–38 s and 72–75 CPU s against 31–36 s and 58–68 CPU s).
// Each project's errors print together when it ends; every project is checked even after errors.
// The server, the contract and the bench share their compiler options and are one program
// (tsconfig.node.json): the contract and the server's modules the bench imports are checked once,
// not two and three times (measured 2026-12-07: 6.3 s and 12 CPU s against 12.8 s and 24 CPU s for
// the three projects one after another). Their own tsconfig.json files stay for editors.
import { spawn } from "node:child_process";

const PROJECTS = ["apps/web", "tsconfig.node.json", "e2e", "apps/web/src/sw"];

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

let ok = true;
for (const project of PROJECTS) ok = (await check(project)) && ok;
process.exit(ok ? 0 : 1);
