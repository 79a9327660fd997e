import type { ExportCategory } from "@carecampus/contract";
import { eq, getTableColumns, getTableName, inArray, or, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/client";
import { users } from "../db/schema";
import { type Owned, type PersonKeys, type PersonLink, PRIVACY_REGISTRY, type PrivacyEntry } from "./registry";

/*
 * A person's data as the registry declares it (GDPR Art. 15, 20): every table with a link to the
 * person, walked by that link, each row shown with what is the person's and without what is
 * someone else's. A row the person is the subject of shows everything but the columns of the
 * people who acted on it (who marked it, who handled it) and its secrets; a row the person acted
 * on shows the table's plain columns and what the link says describes the actor (their name as
 * the author, their remark), not whom the row is about. Files (a partner's PDF) and secrets
 * (a password hash, a certificate's code) never go into the JSON.
 */

/** The rows of one table for the export, by the database's column names. */
export type ExportRows = Record<string, unknown>[];
/** One category's file: its rows per table. */
export type CategoryData = Record<string, ExportRows>;

const isWhole = (o: Owned): o is AnyPgColumn => !("key" in o);

/** The keys of a JSON column a link owns (none when it owns the column whole or not at all). */
const ownedKeys = (link: PersonLink, column: AnyPgColumn) =>
  (link.owns ?? []).filter((o): o is { column: AnyPgColumn; key: string } => !isWhole(o) && o.column === column);

const ownsWhole = (link: PersonLink, column: AnyPgColumn) =>
  link.column === column || (link.owns ?? []).some((o) => isWhole(o) && o === column);

/** A row's value as JSON holds it: instants as ISO text. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value;
}

function pick(object: unknown, keys: (string | undefined)[], keep: boolean): unknown {
  if (!object || typeof object !== "object" || Array.isArray(object)) return keep ? undefined : object;
  const entries = Object.entries(object as Record<string, unknown>).filter(([k]) => keys.includes(k) === keep);
  return Object.fromEntries(entries);
}

/**
 * What of a row a link shows its person: `undefined` for a withheld column; a JSON column that
 * is partly someone else's comes with only the person's keys.
 */
function shownTo(entry: PrivacyEntry, link: PersonLink, column: AnyPgColumn, value: unknown): unknown {
  const personal = entry.personal.find((p) => p.column === column);
  if (personal && (personal.holds === "secret" || personal.holds === "document")) return undefined;
  const actors = entry.links.filter((l) => l !== link && l.role === "actor");
  if (link.role === "actor") {
    if (!personal || ownsWhole(link, column)) return plain(value);
    const keys = ownedKeys(link, column).map((o) => o.key);
    return keys.length > 0 ? pick(value, keys, true) : undefined;
  }
  // The person is who the row is about: all of it but what names those who acted on it.
  if (actors.some((a) => ownsWhole(a, column))) return undefined;
  const foreign = actors.flatMap((a) => ownedKeys(a, column).map((o) => o.key));
  return foreign.length > 0 ? pick(value, foreign, false) : plain(value);
}

/** Several links' views of one row merged: a column shown by any is shown; JSON keys join. */
function merge(views: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const view of views) {
    for (const [k, v] of Object.entries(view)) {
      if (v === undefined) continue;
      const before = out[k];
      out[k] =
        before && typeof before === "object" && !Array.isArray(before) && v && typeof v === "object"
          ? { ...before, ...v }
          : v;
    }
  }
  return out;
}

/** The condition that finds the person's rows by a link. */
export function linkCondition(link: PersonLink, person: PersonKeys): SQL | undefined {
  if (link.by === "user-id") return eq(link.column, person.id);
  return link.match?.(person);
}

/** The person's keys (id, login, name, e-mail) the links without a user id match by. */
export async function personKeys(db: Db | Tx, userId: number): Promise<PersonKeys | undefined> {
  const [row] = await db
    .select({ id: users.id, login: users.login, name: users.name, surname: users.surname, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** Every category's rows of the person, walked from the registry; categories without rows hold empty tables. */
export async function collectPersonData(db: Db | Tx, person: PersonKeys): Promise<Map<ExportCategory, CategoryData>> {
  const out = new Map<ExportCategory, CategoryData>();
  const add = (category: ExportCategory, table: string, rows: ExportRows) => {
    const data = out.get(category) ?? {};
    data[table] = [...(data[table] ?? []), ...rows];
    out.set(category, data);
  };
  for (const entry of PRIVACY_REGISTRY) {
    const name = getTableName(entry.table);
    const columns = Object.entries(getTableColumns(entry.table)) as [string, AnyPgColumn][];
    // Each row once, with every link it is reached by.
    const found = new Map<string, { row: Record<string, unknown>; links: PersonLink[] }>();
    for (const link of entry.links) {
      if (link.export.category === "none") continue;
      add(link.export.category, name, []);
      const condition = linkCondition(link, person);
      if (!condition) continue;
      const rows = (await db.select().from(entry.table).where(condition)) as Record<string, unknown>[];
      for (const row of rows) {
        const key = JSON.stringify(columns.map(([prop]) => row[prop]));
        const seen = found.get(key);
        if (seen) seen.links.push(link);
        else found.set(key, { row, links: [link] });
      }
    }
    for (const { row, links } of found.values()) {
      const views = links.map((link) =>
        Object.fromEntries(columns.map(([prop, column]) => [column.name, shownTo(entry, link, column, row[prop])])),
      );
      const shown = merge(views);
      for (const category of new Set(links.map((l) => l.export.category as ExportCategory)))
        add(category, name, [shown]);
    }
    for (const received of entry.received ?? []) {
      const through = PRIVACY_REGISTRY.find((e) => e.table === received.through.table);
      const own = through?.links.filter((l) => l.role === "subject" && l.by === "user-id") ?? [];
      if (own.length === 0) continue;
      add(received.category, `${name} (received)`, []);
      const keys = db
        .select({ key: received.through })
        .from(received.through.table)
        .where(or(...own.map((l) => eq(l.column, person.id))));
      const rows = (await db.select().from(entry.table).where(inArray(received.key, keys))) as Record<
        string,
        unknown
      >[];
      const personal = new Set(entry.personal.map((p) => p.column));
      add(
        received.category,
        `${name} (received)`,
        rows.map((row) =>
          Object.fromEntries(
            columns
              .filter(([, column]) => !personal.has(column) || received.columns.includes(column))
              .map(([prop, column]) => [column.name, plain(row[prop])]),
          ),
        ),
      );
    }
  }
  return out;
}
