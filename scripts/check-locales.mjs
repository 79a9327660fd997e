// Every language has every key, and every {{placeholder}} of the German text (spec: de is the source).
import fs from "node:fs";

const dir = new URL("../apps/web/src/i18n/locales/", import.meta.url);
const LANGS = ["de", "en", "fr", "es", "br"];
const flat = (o, pre = "") =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" ? flat(v, `${pre}${k}.`) : [[`${pre}${k}`, v]]));
const locales = Object.fromEntries(
  LANGS.map((l) => [l, new Map(flat(JSON.parse(fs.readFileSync(new URL(`${l}.json`, dir), "utf8"))))]),
);
const placeholders = (s) =>
  [...String(s).matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(",");
const problems = [];
const allKeys = new Set(LANGS.flatMap((l) => [...locales[l].keys()]));
for (const l of LANGS) {
  for (const key of allKeys) {
    const value = locales[l].get(key);
    if (value === undefined) problems.push(`${l}: missing ${key}`);
    else if (typeof value !== "string" || value.trim() === "") problems.push(`${l}: empty ${key}`);
    else if (locales.de.has(key) && placeholders(value) !== placeholders(locales.de.get(key))) {
      problems.push(`${l}: placeholders of ${key} differ from de`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`Locales complete: ${allKeys.size} keys in ${LANGS.join(", ")}.`);
