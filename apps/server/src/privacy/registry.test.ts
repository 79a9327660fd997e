// The registry must name every user reference and every column that looks personal, in the
// Drizzle schema and in the migrated database (a migration may add a reference schema.ts lacks).
import { is, sql } from "drizzle-orm";
import { type AnyPgColumn, getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../test/helpers";
import type { Db, Tx } from "../db/client";
import * as schema from "../db/schema";
import { PRIVACY_REGISTRY } from "./registry";

const tables: PgTable[] = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
const nameOf = (table: PgTable) => getTableConfig(table).name;
const at = (column: AnyPgColumn) => `${nameOf(column.table)}.${column.name}`;

/** Names, logins, e-mails, addresses, secrets: personal in any table. */
const PERSONAL_NAME =
  /(^|_)(name|surname|salutation|login|email|e_mail|ip|author|recipients?|password|secret|token)(_|$)/;
/** Free text: personal in a table whose rows name a person (written by or about them). */
const FREE_TEXT =
  /(^|_)(text|note|notes|comment|comments|summary|message|remark|reason|body|content|subject|label|location|description|title|filename|error|attachments)(_|$)/;

/** Columns the patterns above match that hold no personal data, each with the reason. */
const NOT_PERSONAL: Record<string, string> = {
  "facilities.name": "A facility's name, not a person's.",
  "preferences.content_language": "A language code the person chose for trainings (deleted with the row).",
  "question_translations.text": "A question's text in a content language: course content, about nobody.",
  "name_translations.name": "A topic's, training's or questionnaire's name in a content language: course content.",
  "roles.name": "A role's name (employee, administrator, …).",
  "activities.name": "The name of an area of focus from a reference list.",
  "qualifications.name": "The name of a job qualification from a reference list.",
  "additional_qualifications.name": "The name of a qualification a facility defines.",
  "media.name": "A content file's or icon's name.",
  "topics.name": "Content: a topic's name.",
  "trainings.name": "Content: a training's name.",
  "questionnaires.name": "Content: a questionnaire's name.",
  "partner_certificates.course_name": "The partner's course title; the row's person is its user_id.",
  "users.token_version": "A counter that retires old tokens; no token is stored.",
  "calendar_events.label": "The training date's title, the facility's planning, not about a person.",
  "calendar_events.location": "The room of a training date.",
  "certificates.revoke_reason":
    "One of three fixed reasons (contract REVOCATION_REASONS); staff's own words are revoke_note.",
  "wiki_revisions.content": "The page text: facility documentation; its author is anonymised (registry).",
};

const personalColumns = new Set(PRIVACY_REGISTRY.flatMap((e) => e.personal.map((p) => p.column)));
const userIdLinks = new Set(
  PRIVACY_REGISTRY.flatMap((e) => e.links.filter((l) => l.by === "user-id").map((l) => at(l.column))),
);

/** Whether `table.column` in the database's terms refers to a person: users.id or a declared user reference. */
const namesAUser = (table: string, column: string) =>
  (table === "users" && column === "id") || userIdLinks.has(`${table}.${column}`);

/** Every foreign key of the schema, one row per column pair. */
function schemaForeignKeys() {
  return tables.flatMap((table) =>
    getTableConfig(table).foreignKeys.flatMap((fk) => {
      const ref = fk.reference();
      return ref.columns.map((column, i) => ({
        from: at(column),
        to: { table: nameOf(ref.foreignTable), column: ref.foreignColumns[i]?.name ?? "" },
      }));
    }),
  );
}

describe("the privacy registry against the schema", () => {
  it("declares every column with a foreign key to a user as a user reference", () => {
    const missing = schemaForeignKeys()
      .filter((fk) => namesAUser(fk.to.table, fk.to.column) && !userIdLinks.has(fk.from))
      .map((fk) => `${fk.from} references ${fk.to.table}.${fk.to.column}`);
    expect(
      missing,
      `undeclared user references: add them to PRIVACY_REGISTRY (privacy/registry.ts):\n${missing.join("\n")}`,
    ).toEqual([]);
  });

  it("declares every column that looks personal, or names it as an exception", () => {
    const linked = new Set(
      schemaForeignKeys()
        .filter((fk) => namesAUser(fk.to.table, fk.to.column))
        .map((fk) => fk.from.split(".")[0]),
    );
    for (const e of PRIVACY_REGISTRY) if (e.links.length > 0) linked.add(nameOf(e.table));
    const missing: string[] = [];
    for (const table of tables) {
      const name = nameOf(table);
      for (const column of getTableConfig(table).columns) {
        const key = `${name}.${column.name}`;
        const looksPersonal = PERSONAL_NAME.test(column.name) || (linked.has(name) && FREE_TEXT.test(column.name));
        if (looksPersonal && !personalColumns.has(column) && !(key in NOT_PERSONAL)) missing.push(key);
      }
    }
    expect(
      missing,
      `columns that look personal: declare them in PRIVACY_REGISTRY or, with a reason, in NOT_PERSONAL:\n${missing.join("\n")}`,
    ).toEqual([]);
  });

  it("names only tables and columns that exist, each table once, each column in its own table", () => {
    const problems: string[] = [];
    const seen = new Set<PgTable>();
    for (const e of PRIVACY_REGISTRY) {
      const name = nameOf(e.table);
      if (!tables.includes(e.table)) problems.push(`${name}: not a table of schema.ts`);
      if (seen.has(e.table)) problems.push(`${name}: declared twice`);
      seen.add(e.table);
      const own = new Set(getTableConfig(e.table).columns);
      const columns = [
        ...e.personal.map((p) => p.column),
        ...e.links.map((l) => l.column),
        ...e.links.flatMap((l) => (l.erasure.rule === "anonymise" ? l.erasure.set.map((s) => s.column) : [])),
      ];
      for (const c of columns) if (!own.has(c)) problems.push(`${at(c)}: not a column of ${name}`);
      for (const l of e.links) {
        if (!personalColumns.has(l.column)) problems.push(`${at(l.column)}: a link not listed as personal`);
        if (l.export.category === "none" && !l.export.reason.trim())
          problems.push(`${at(l.column)}: export none without a reason`);
        if (!l.erasure.why.trim()) problems.push(`${at(l.column)}: erasure without a justification`);
      }
      if (!e.purpose.trim()) problems.push(`${name}: no purpose`);
    }
    for (const key of Object.keys(NOT_PERSONAL)) {
      const [table, column] = key.split(".");
      const found = tables.find((t) => nameOf(t) === table);
      if (!found || !getTableConfig(found).columns.some((c) => c.name === column)) {
        problems.push(`${key}: an exception for a column that no longer exists`);
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("removes every name, login, e-mail, address and secret at erasure", () => {
    const kept: string[] = [];
    for (const e of PRIVACY_REGISTRY) {
      const rules = e.links.map((l) => l.erasure);
      const rowsGo = rules.some((r) => r.rule === "delete" || r.rule === "keep-until-retention");
      const replaced = new Set(rules.flatMap((r) => (r.rule === "anonymise" ? r.set.map((s) => s.column) : [])));
      for (const p of e.personal) {
        const mustGo = ["name", "login", "email", "ip", "secret"].includes(p.holds);
        if (mustGo && !rowsGo && !replaced.has(p.column)) kept.push(at(p.column));
      }
    }
    expect(kept, `kept after erasure: delete the rows or anonymise these columns:\n${kept.join("\n")}`).toEqual([]);
  });
});

describe("the privacy registry against the migrated database", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const query = async <T extends Record<string, unknown>>(statement: ReturnType<typeof sql>) =>
    (await ctx.deps.database.db.execute<T>(statement)).rows;

  /** The database's foreign keys to a user that the registry does not declare (none of them when it is complete). */
  async function undeclaredUserReferences(db: Db | Tx): Promise<string[]> {
    const keys = (
      await db.execute<{ from_table: string; from_column: string; to_table: string; to_column: string }>(sql`
      select kcu.table_name as from_table, kcu.column_name as from_column,
             ref.table_name as to_table, ref.column_name as to_column
        from information_schema.referential_constraints rc
        join information_schema.key_column_usage kcu
          on kcu.constraint_schema = rc.constraint_schema and kcu.constraint_name = rc.constraint_name
        join information_schema.key_column_usage ref
          on ref.constraint_schema = rc.unique_constraint_schema and ref.constraint_name = rc.unique_constraint_name
         and ref.ordinal_position = kcu.position_in_unique_constraint
       where kcu.table_schema = 'public'
       order by 1, 2`)
    ).rows;
    expect(keys.length).toBeGreaterThan(0);
    return keys
      .filter((k) => namesAUser(k.to_table, k.to_column) && !userIdLinks.has(`${k.from_table}.${k.from_column}`))
      .map((k) => `${k.from_table}.${k.from_column} references ${k.to_table}.${k.to_column}`);
  }

  it("declares every foreign key to a user that the migrations made", async () => {
    const missing = await undeclaredUserReferences(ctx.deps.database.db);
    expect(
      missing,
      `the database has undeclared user references (a migration without schema.ts?):\n${missing.join("\n")}`,
    ).toEqual([]);
  });

  it("reports a user reference a migration adds without declaring it (shown on a table that is rolled back)", async () => {
    const rollback = new Error("rollback");
    let found: string[] = [];
    await expect(
      ctx.deps.database.db.transaction(async (tx) => {
        // What a careless migration would do: a new table naming its author, and a new column on an old one.
        await tx.execute(
          sql`create table "scratch_notes" (id serial primary key, written_by integer references users(id))`,
        );
        await tx.execute(sql`alter table "certificates" add column "checked_by" integer references users(id)`);
        found = await undeclaredUserReferences(tx);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(found).toEqual([
      "certificates.checked_by references users.id",
      "scratch_notes.written_by references users.id",
    ]);
    // Rolled back: the database is complete again.
    expect(await undeclaredUserReferences(ctx.deps.database.db)).toEqual([]);
  });

  it("has every table of the registry, with its columns, and no table schema.ts lacks", async () => {
    const rows = await query<{ table_name: string; column_name: string }>(sql`
      select table_name, column_name from information_schema.columns where table_schema = 'public'`);
    const inDatabase = new Set(rows.map((r) => `${r.table_name}.${r.column_name}`));
    const registryColumns = PRIVACY_REGISTRY.flatMap((e) => e.personal.map((p) => at(p.column)));
    expect(registryColumns.filter((c) => !inDatabase.has(c))).toEqual([]);
    const schemaTables = new Set(tables.map(nameOf));
    const unknown = [...new Set(rows.map((r) => r.table_name))].filter((t) => !schemaTables.has(t));
    expect(unknown, `tables in the database that schema.ts does not declare: ${unknown.join(", ")}`).toEqual([]);
  });
});
