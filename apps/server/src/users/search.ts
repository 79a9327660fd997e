import { SEARCH_LETTERS } from "@carecampus/contract";
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

const single = Object.entries(SEARCH_LETTERS).filter(([, to]) => to.length === 1);
const multi = Object.entries(SEARCH_LETTERS).filter(([, to]) => to.length > 1);

/**
 * The contract's `searchKey` computed by PostgreSQL (PGlite alike), so a name column can be
 * compared with the search form of what was typed: NFKD, the undecomposable letters spelt out,
 * lower case, marks removed, ae/oe/ue read as a/o/u. users/search.test.ts checks that both give
 * the same form for names of many languages.
 */
export function searchKeySql(value: SQLWrapper): SQL {
  let expr = sql`translate(normalize(${value}, NFKD), ${single.map(([from]) => from).join("")}, ${single.map(([, to]) => to).join("")})`;
  for (const [from, to] of multi) expr = sql`replace(${expr}, ${from}, ${to})`;
  expr = sql`regexp_replace(lower(${expr}), ${"[\u0300-\u036f]"}, '', 'g')`;
  for (const [from, to] of [
    ["ae", "a"],
    ["oe", "o"],
    ["ue", "u"],
  ] as const) {
    expr = sql`replace(${expr}, ${from}, ${to})`;
  }
  return sql`trim(${expr})`;
}
