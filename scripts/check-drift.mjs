// Migration drift check: generating migrations from the schema must produce nothing new.
import { spawnSync } from "node:child_process";

const run = spawnSync("npx", ["drizzle-kit", "generate"], { encoding: "utf8" });
const out = `${run.stdout}${run.stderr}`;
if (run.status !== 0) {
  console.error(out);
  process.exit(run.status ?? 1);
}
if (!out.includes("No schema changes")) {
  console.error(out);
  console.error(
    "Migration drift: src/db/schema.ts differs from the migrations. Run `npm run db:generate -w apps/server` and commit the result.",
  );
  process.exit(1);
}
console.log("Migrations match the schema.");
