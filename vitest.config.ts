import { defineConfig } from "vitest/config";
import { webLocales } from "./apps/web/vite.config";

export default defineConfig({
  test: {
    // CI=1: a forgotten `.only` fails the run instead of silently skipping the rest.
    allowOnly: !process.env.CI,
    projects: [
      {
        // The web app's language chunks as the build makes them (its login part and the rest).
        plugins: [webLocales()],
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "apps/web/src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
          environment: "node",
          // The component tests render whole screens in jsdom, and their waits give the screen up
          // to 10 s (test/render.tsx asyncUtilTimeout); Vitest's 5 s default cut a test off before
          // its own wait ran out when the browser lane kept both cores busy (a CI run: a form's
          // first test took over 5 s there, 1.7 s on a quiet machine).
          testTimeout: 20_000,
          // A worker runs its files one after another in one module graph (React, Mantine and the
          // app's modules load once per worker, not once per file); each file still gets a jsdom
          // of its own (a fresh document and storage). Measured alone: 15 s and 15 CPU s against
          // 55 s and 69 CPU s isolated, the tests passing either way and in five shuffled file
          // orders (--sequence.shuffle.files). The API files that back up, restore and start whole
          // installations then start sooner, beside the browser lane's build: their limits allow for it.
          isolate: false,
        },
      },
      {
        test: {
          name: "api",
          include: ["apps/server/src/**/*.test.ts"],
          environment: "node",
          // Migrates one template database; each file's database starts as a copy of it.
          globalSetup: ["apps/server/test/global-setup.ts"],
          // Each file starts its own app on its own database; two at a time fit two cores.
          maxWorkers: 2,
          // A worker runs its files one after another in one module graph: the server's modules
          // load once per worker, not once per file. Every file still has its own app and
          // database (test/helpers.ts); nothing in the server keeps state in a module.
          isolate: false,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
