// Migrates one database per run of the API tests; every test file starts from a copy of it
// (apps/server/test/helpers.ts) instead of running all migrations again.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client";
import { seedReferenceLists } from "../src/demo/seed";
import type {} from "./provided";

async function pgAdmin<T>(base: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.TEST_DB === "pg") {
    const base = process.env.DATABASE_URL;
    if (!base) throw new Error("TEST_DB=pg needs DATABASE_URL");
    const name = `cc_template_${crypto.randomBytes(6).toString("hex")}`;
    await pgAdmin(base, (c) => c.query(`create database ${name}`));
    const url = new URL(base);
    url.pathname = `/${name}`;
    // The app's own start-up path: migrations, then the reference lists.
    const database = await openDatabase({ databaseUrl: url.toString() });
    await seedReferenceLists(database.db);
    await database.close();
    project.provide("pgTemplate", name);
    project.provide("pgliteTemplate", "");
    project.provide("pgliteTemplateDir", "");
    return async () => {
      await pgAdmin(base, (c) => c.query(`drop database if exists ${name} with (force)`));
    };
  }

  // Migrated on disk through the app's own openDatabase, then packed as PGlite's tarball for the
  // databases in memory; a database on disk copies the directory itself.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-pglite-template-"));
  const file = path.join(dir, "template.tar");
  const database = await openDatabase({ pgliteDir: dir });
  await seedReferenceLists(database.db);
  await database.close();
  const client = await PGlite.create({ dataDir: path.join(dir, "pglite") });
  const dump = await client.dumpDataDir("none");
  await client.close();
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  // The directory itself too, closed: copying it is quicker than unpacking the tarball.
  project.provide("pgliteTemplateDir", path.join(dir, "pglite"));
  project.provide("pgTemplate", "");
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
