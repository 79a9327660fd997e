// Bundles the server into dist/main.mjs for `npm start`: plain Node runs it, with no TypeScript
// compiler loaded at run time (tsx stays for tests and development). The npm packages stay
// outside the bundle and load from node_modules; the contract package (TypeScript) and the web
// app's locale files (JSON, for the mails) go in.
import fs from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(fs.readFileSync(new URL("package.json", import.meta.url), "utf8"));
const BUNDLED = ["@carecampus/contract", "@carecampus/web"];
const external = Object.keys(pkg.dependencies).filter((name) => !BUNDLED.includes(name));

await build({
  entryPoints: [new URL("src/main.ts", import.meta.url).pathname],
  outfile: new URL("dist/main.mjs", import.meta.url).pathname,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external,
  sourcemap: "linked",
  logLevel: "warning",
});
