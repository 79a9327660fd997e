import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { DEMO_CONTENT } from "../bootstrap";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { openDatabase } from "../db/client";
import { seedIfEmpty } from "../demo/seed";
import { copyToPostgres } from "./migrate-to-postgres";

describe("npm run db:migrate-to-postgres", () => {
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
        // A time as PostgreSQL keeps it, to the microsecond (JavaScript's dates keep milliseconds).
        await source.db.execute(
          sql`update users set created_at = '2026-01-02 03:04:05.123456+00' where login = 'admin'`,
        );
        const times = "select string_agg(created_at::text, ',' order by id) as t from users";
        const sourceTimes = (await source.db.execute<{ t: string }>(sql.raw(times))).rows[0]?.t;
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
        // Exactly, down to the microsecond.
        await check.query("set time zone 'UTC'");
        expect((await check.query(times)).rows[0].t).toBe(sourceTimes);
        expect(sourceTimes).toContain("2026-01-02 03:04:05.123456+00");
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
