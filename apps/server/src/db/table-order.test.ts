import fs from "node:fs";
import { getTableName } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { tablesInCopyOrder } from "./table-order";

describe("the tables in copy order (backups, npm run db:migrate-to-postgres)", () => {
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
});
