import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getTableName } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { DEMO_CONTENT } from "../bootstrap";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { seedIfEmpty } from "../demo/seed";
import { openDatabase } from "./client";
import { copyToPostgres, tablesInCopyOrder } from "./migrate-to-postgres";

describe("npm run db:migrate-to-postgres", () => {
  it("copies every table of the schema, parents before children", () => {
    const order = tablesInCopyOrder();
    const names = order.map((t) => getTableName(t));
    const migrations = fs
      .readdirSync(new URL("./migrations", import.meta.url))
      .filter((f) => f.endsWith(".sql"))
      .map((f) => fs.readFileSync(new URL(`./migrations/${f}`, import.meta.url), "utf8"))
      .join("\n");
    const created = [...migrations.matchAll(/CREATE TABLE "(\w+)"/g)].map((m) => m[1]);
    expect(new Set(names)).toEqual(new Set(created));
    for (const table of order) {
      for (const fk of getTableConfig(table).foreignKeys) {
        const parent = fk.reference().foreignTable;
        if (parent !== table)
          expect(order.indexOf(parent), `${getTableName(table)} after its parent`).toBeLessThan(order.indexOf(table));
      }
    }
  });

  it.runIf(process.env.TEST_DB === "pg" && process.env.DATABASE_URL)(
    "moves a PGlite database with content and demo users into PostgreSQL",
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-move-"));
      const name = `cc_move_${process.pid}`;
      const adminUrl = String(process.env.DATABASE_URL);
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      try {
        const source = await openDatabase({ pgliteDir: dataDir });
        await seedIfEmpty(source.db, true, undefined);
        await importPackage(source.db, loadPackage(DEMO_CONTENT));
        await source.close();
        const target = await openDatabase({ databaseUrl: url.toString() });
        await target.close();
        await copyToPostgres(dataDir, url.toString(), () => {});
        const check = new pg.Client({ connectionString: url.toString() });
        await check.connect();
        const count = async (table: string) =>
          Number((await check.query(`select count(*) from ${table}`)).rows[0].count);
        expect(await count("users")).toBe(7);
        expect(await count("questions")).toBeGreaterThan(100);
        expect(await count("media")).toBeGreaterThan(0);
        // Sequences moved on: the next user gets a fresh id.
        const next = await check.query("insert into facilities (name) values ('Neu') returning id");
        expect(next.rows[0].id).toBeGreaterThan(2);
        await check.end();
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    // A whole demo seed and content import on PGlite, then the move: ~10 s on a quiet machine,
    // several times that while other work shares its two cores.
    120_000,
  );
});
