import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findViolations, importsOf } from "./check-feature-imports.mjs";

const SCRIPT = path.join(import.meta.dirname, "check-feature-imports.mjs");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cc-feature-imports-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(tmp, "src-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("check-feature-imports", () => {
  it("reads static, re-export, side-effect and dynamic imports", () => {
    const text = [
      'import { a } from "./a";',
      'import type { B } from "../b/types";',
      'export { c } from "../c";',
      'import "./side.css";',
      'const D = lazy(() => import("../d/Page"));',
      "import {\n  e,\n  f,\n} from '../e';",
    ].join("\n");
    expect(importsOf(text).sort()).toEqual(["../b/types", "../c", "../d/Page", "../e", "./a", "./side.css"]);
  });

  it("allows imports within a feature (at any depth) and from shared folders", () => {
    const root = tree({
      "features/users/UsersPage.tsx": 'import { q } from "./queries";\nimport { C } from "../../components/C";',
      "features/users/import/UserImport.tsx":
        'import { q } from "../queries";\nimport { x } from "../../../queries/admin";',
      "components/C.tsx": 'import { NotFound } from "../features/users/UsersPage";',
      "app/routes.tsx": 'const P = lazy(() => import("../features/users/UsersPage"));',
    });
    expect(findViolations(root)).toEqual([]);
  });

  it("finds every import from another feature, type-only and dynamic ones too", () => {
    const root = tree({
      "features/users/UsersPage.tsx": 'import { useUserProgress } from "../learning/queries";',
      "features/users/import/UserImport.tsx": 'import type { T } from "../../progress/types";',
      "features/home/HomePage.tsx": 'const G = lazy(() => import("../learning/TopicGrid"));',
      "features/learning/queries.ts": 'export { x } from "./x";',
    });
    expect(findViolations(root)).toEqual(
      expect.arrayContaining([
        { file: path.join("features", "users", "UsersPage.tsx"), spec: "../learning/queries", feature: "learning" },
        {
          file: path.join("features", "users", "import", "UserImport.tsx"),
          spec: "../../progress/types",
          feature: "progress",
        },
        { file: path.join("features", "home", "HomePage.tsx"), spec: "../learning/TopicGrid", feature: "learning" },
      ]),
    );
    expect(findViolations(root)).toHaveLength(3);
  });

  it("fails the command on a violation and passes the real web app", () => {
    const bad = tree({ "features/a/A.tsx": 'import { b } from "../b/B";', "features/b/B.tsx": "export const b = 1;" });
    const failed = spawnSync(process.execPath, [SCRIPT, bad], { encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('features/a/A.tsx: imports "../b/B" from features/b');
    const real = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8" });
    expect(real.stderr).toBe("");
    expect(real.status).toBe(0);
  });
});
