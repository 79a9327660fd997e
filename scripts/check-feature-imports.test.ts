import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findCircles, findOutsideImports, findViolations, importsOf } from "./check-feature-imports.mjs";

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

describe("server folders in a circle", () => {
  it("finds two folders that import each other, with the imports that close the circle", () => {
    const root = tree({
      "auth/service.ts": 'import { findUser } from "../users/service";',
      "users/routes.ts": 'import { authenticate } from "../auth/guards";',
      "users/service.ts": "export const findUser = 1;",
      "access/policy.ts": 'import { x } from "../errors";',
    });
    expect(findCircles(root)).toEqual([
      {
        folders: ["auth", "users"],
        imports: [
          { file: path.join("auth", "service.ts"), spec: "../users/service" },
          { file: path.join("users", "routes.ts"), spec: "../auth/guards" },
        ],
      },
    ]);
  });

  it("finds a circle through several folders, and type-only and dynamic imports close it too", () => {
    const root = tree({
      "content/service.ts": 'import type { Page } from "../wiki/pages";',
      "wiki/pages.ts": 'const c = () => import("../certificates/service");',
      "certificates/service.ts": 'export { a } from "../content/service";',
      "learning/quiz.ts": 'import { c } from "../certificates/service";',
    });
    expect(findCircles(root).map((c) => c.folders)).toEqual([["certificates", "content", "wiki"]]);
  });

  it("allows one-way use, files at the top, and tests that reach anywhere", () => {
    const root = tree({
      "auth/service.ts": 'import { findUser } from "../users/service";\nimport { deps } from "../deps";',
      "users/service.ts": 'import { AppError } from "../errors";\nimport { x } from "./search";',
      "users/users.test.ts": 'import { login } from "../auth/service";',
      "deps.ts": 'import type { T } from "./auth/tokens";',
      "app.ts": 'import { a } from "./auth/service";\nimport { u } from "./users/service";',
    });
    expect(findCircles(root)).toEqual([]);
  });

  it("finds server code that reaches out of src/ by a relative path, not a test", () => {
    const root = tree({
      "mail/templates.ts": 'import de from "../../../web/src/i18n/locales/de.json";\nimport { x } from "../errors";',
      "mail/mail.test.ts": 'import { h } from "../../test/helpers";',
      "main.ts": 'import { y } from "./mail/templates";',
    });
    expect(findOutsideImports(root)).toEqual([
      { file: path.join("mail", "templates.ts"), spec: "../../../web/src/i18n/locales/de.json" },
    ]);
    const failed = spawnSync(process.execPath, [SCRIPT, tree({}), root], { encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain(
      `${path.join("mail", "templates.ts")}: imports "../../../web/src/i18n/locales/de.json"`,
    );
  });

  it("fails the command on a circle and passes the real server", () => {
    const web = tree({ "features/a/A.tsx": "export const a = 1;" });
    const server = tree({
      "certificates/service.ts": 'import { p } from "../learning/progress";',
      "learning/quiz.ts": 'import { issue } from "../certificates/service";',
    });
    const failed = spawnSync(process.execPath, [SCRIPT, web, server], { encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain("server folders in a circle: certificates, learning");
    expect(failed.stderr).toContain(`${path.join("learning", "quiz.ts")}: imports "../certificates/service"`);
    const real = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8" });
    expect(real.stdout).toContain("No server folders import each other in a circle.");
  });
});
