// Writes packages/contract/src/api-table.ts, the endpoint table without its zod schemas (name,
// method, path, kind), from packages/contract/src/endpoints.ts: `npm run gen:api` after changing
// the table. The compiler and packages/contract/src/api.test.ts refuse a stale one.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { endpoints } from "../packages/contract/src/endpoints.ts";

const target = fileURLToPath(new URL("../packages/contract/src/api-table.ts", import.meta.url));
const rows = Object.values(endpoints).map((e) => {
  const kind = e.kind === "download" || e.kind === "redirect" ? `, kind: ${JSON.stringify(e.kind)}` : "";
  return `  ${e.name}: { method: ${JSON.stringify(e.method)}, path: ${JSON.stringify(e.path)}${kind} },`;
});
const text = `// Generated from endpoints.ts by \`npm run gen:api\` (scripts/gen-api-table.mjs): do not edit.
import type { ApiTable } from "./api";

/** Each call's method, path and kind ("json" unless it says "download" or "redirect"); api.ts makes the table of it. */
export const apiTable = {
${rows.join("\n")}
} as const satisfies ApiTable;
`;
fs.writeFileSync(target, text);
const format = spawnSync("npx", ["biome", "format", "--write", target], { stdio: "inherit" });
if (format.status !== 0) process.exit(format.status ?? 1);
console.log(`packages/contract/src/api-table.ts: ${rows.length} calls`);
