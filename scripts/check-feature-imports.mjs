// A web feature is a room (ARCHITECTURE §3): a file in features/X may import from features/X,
// the shared folders (components/, queries/, api/, session/, …) and packages, never from
// features/Y. Biome's noRestrictedImports matches import strings, not the folder they resolve
// to, so "../learning/queries" from features/users and "../queries" from features/users/import
// cannot be told apart there; this check resolves every relative import instead.
//
// The server's folders (apps/server/src/<folder>) may use each other, but never in a circle
// (issue 26): when auth uses users, users does not use auth, directly or through others. A
// circle makes two folders one room in all but name, and the order in which their modules load
// decides what is still undefined. Nor does the server's code reach out of its src/ by a
// relative path: another workspace (the contract, the web app's locale files) is imported by its
// package name, declared in package.json.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = /\.(ts|tsx|js|jsx|mts|mjs)$/;
// import … from "x", export … from "x", import "x", import("x")
const SPECIFIERS = [
  /\b(?:import|export)\s+(?:type\s+)?[^"';]*?\bfrom\s*["']([^"']+)["']/g,
  /\bimport\s*["']([^"']+)["']/g,
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
];

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

/** The specifiers a source text imports (comments are not parsed away: write none that look like imports). */
export function importsOf(text) {
  const found = [];
  for (const pattern of SPECIFIERS) {
    for (const match of text.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

/** The feature a path lies in, or null outside features/. */
function featureOf(featuresDir, file) {
  const rel = path.relative(featuresDir, file);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0];
}

/** Every import from one feature into another under `srcDir` (the web app's src/). */
export function findViolations(srcDir) {
  const featuresDir = path.join(srcDir, "features");
  const violations = [];
  for (const file of walk(featuresDir)) {
    const own = featureOf(featuresDir, file);
    const text = fs.readFileSync(file, "utf8");
    for (const spec of importsOf(text)) {
      if (!spec.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), spec);
      const other = featureOf(featuresDir, target);
      if (other !== null && other !== own) {
        violations.push({ file: path.relative(srcDir, file), spec, feature: other });
      }
    }
  }
  return violations;
}

/** The top folder of `file` under `srcDir`, or null for a file at the top (app.ts, main.ts, deps.ts, …) or outside. */
function folderOf(srcDir, file) {
  const parts = path.relative(srcDir, file).split(path.sep);
  if (parts.length < 2 || parts[0] === ".." || path.isAbsolute(parts[0])) return null;
  return parts[0];
}

/**
 * The folder graph of the server's `srcDir`: folder → folder → the imports that make that edge.
 * Tests are left out (a test may set its scene up through any folder), and so are the files at
 * the top: they are the composition root (app.ts, main.ts, bootstrap.ts) and the kernel every
 * folder shares (deps.ts, errors.ts, config.ts), not a folder of their own.
 */
export function folderGraph(srcDir) {
  const graph = new Map();
  for (const file of walk(srcDir)) {
    if (/\.test\.[cm]?[jt]sx?$/.test(file)) continue;
    const from = folderOf(srcDir, file);
    if (from === null) continue;
    for (const spec of importsOf(fs.readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const to = folderOf(srcDir, path.resolve(path.dirname(file), spec));
      if (to === null || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push({ file: path.relative(srcDir, file), spec });
    }
  }
  return graph;
}

/** Imports of the server's code (tests aside) whose relative path leads out of `srcDir`. */
export function findOutsideImports(srcDir) {
  const found = [];
  for (const file of walk(srcDir)) {
    if (/\.test\.[cm]?[jt]sx?$/.test(file)) continue;
    for (const spec of importsOf(fs.readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const rel = path.relative(srcDir, path.resolve(path.dirname(file), spec));
      if (rel.startsWith("..") || path.isAbsolute(rel)) found.push({ file: path.relative(srcDir, file), spec });
    }
  }
  return found;
}

/**
 * Every circle of folders under `srcDir`: each group of folders that reach each other through
 * their imports (Tarjan's strongly connected components), sorted, with the imports inside it.
 */
export function findCircles(srcDir) {
  const graph = folderGraph(srcDir);
  const next = (folder) => [...(graph.get(folder)?.keys() ?? [])].sort();
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of [...graph.keys()].sort()) if (!index.has(folder)) visit(folder);
  return groups
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map((folders) => ({
      folders,
      imports: folders.flatMap((from) =>
        next(from)
          .filter((to) => folders.includes(to))
          .flatMap((to) => graph.get(from).get(to)),
      ),
    }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // node scripts/check-feature-imports.mjs [web src [server src]]: the real app's by default.
  const srcDir = path.resolve(process.argv[2] ?? fileURLToPath(new URL("../apps/web/src", import.meta.url)));
  const serverDir = path.resolve(process.argv[3] ?? fileURLToPath(new URL("../apps/server/src", import.meta.url)));
  let failed = false;
  const violations = findViolations(srcDir);
  if (violations.length > 0) {
    for (const v of violations) console.error(`${v.file}: imports "${v.spec}" from features/${v.feature}`);
    console.error(
      `${violations.length} import(s) cross feature folders: move what two features share to components/ or queries/.`,
    );
    failed = true;
  } else {
    console.log("No web feature imports another feature.");
  }
  const circles = findCircles(serverDir);
  if (circles.length > 0) {
    for (const c of circles) {
      console.error(`server folders in a circle: ${c.folders.join(", ")}`);
      for (const i of c.imports) console.error(`  ${i.file}: imports "${i.spec}"`);
    }
    console.error(
      `${circles.length} circle(s) of server folders: move what both use to a folder both may import, or turn one dependency around.`,
    );
    failed = true;
  } else {
    console.log("No server folders import each other in a circle.");
  }
  const outside = findOutsideImports(serverDir);
  if (outside.length > 0) {
    for (const o of outside) console.error(`${o.file}: imports "${o.spec}" from outside the server's src/`);
    console.error(`${outside.length} server import(s) leave src/: import another workspace by its package name.`);
    failed = true;
  }
  if (failed) process.exit(1);
}
