// A web feature is a room (ARCHITECTURE §3): a file in features/X may import from features/X,
// the shared folders (components/, queries/, api/, session/, …) and packages, never from
// features/Y. Biome's noRestrictedImports matches import strings, not the folder they resolve
// to, so "../learning/queries" from features/users and "../queries" from features/users/import
// cannot be told apart there; this check resolves every relative import instead.
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

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const srcDir = path.resolve(process.argv[2] ?? fileURLToPath(new URL("../apps/web/src", import.meta.url)));
  const violations = findViolations(srcDir);
  if (violations.length > 0) {
    for (const v of violations) console.error(`${v.file}: imports "${v.spec}" from features/${v.feature}`);
    console.error(
      `${violations.length} import(s) cross feature folders: move what two features share to components/ or queries/.`,
    );
    process.exit(1);
  }
  console.log("No web feature imports another feature.");
}
