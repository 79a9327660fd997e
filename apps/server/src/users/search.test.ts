import { searchKey } from "@carecampus/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createFacility, createTestApp, createUser, login, type TestContext } from "../../test/helpers";
import { users } from "../db/schema";
import { searchKeySql } from "./search";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const NAMES = [
  "Müller",
  "Mueller",
  "Straße",
  "GROẞ",
  "Öztürk",
  "Şahin",
  "Çağrı",
  "İlker",
  "Yılmaz",
  "Łukasz",
  "Wróbel",
  "Żółkiewski",
  "Lefèvre",
  "François",
  "Zoë",
  "Œuvre",
  "Ørsted",
  "Æbelø",
  "Þórður",
  "Nguyễn",
  "Dvořák",
  "Ｍüller",
];

describe("the search form in SQL", () => {
  it("is the contract's searchKey for names of many languages", async () => {
    for (const name of NAMES) {
      const { rows } = await ctx.deps.database.db.execute<{ key: string }>(
        sql`select ${searchKeySql(sql`${name}::text`)} as key`,
      );
      expect(rows[0]?.key, name).toBe(searchKey(name));
    }
  });
});

describe("GET /api/auth/admin/users?query=", () => {
  it("finds staff however their names are spelt: mueller, ozturk, lefevre, lukasz", async () => {
    const facility = await createFacility(ctx);
    const admin = await createUser(ctx, ["administrator"], facility.id);
    const token = await login(ctx, admin.login);
    const people = [
      ["Müller", "Anna"],
      ["Öztürk", "Ayşe"],
      ["Lefèvre", "Zoë"],
      ["Wróbel", "Łukasz"],
      ["Miller", "Tom"],
    ] as const;
    for (const [surname, name] of people) {
      const u = await createUser(ctx, ["employee"], facility.id);
      await ctx.deps.database.db.update(users).set({ surname, name }).where(eq(users.id, u.id));
    }
    const found = async (query: string) => {
      const res = await ctx.app.inject({
        method: "GET",
        url: `/api/auth/admin/users?query=${encodeURIComponent(query)}`,
        headers: bearer(token),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { users: { surname: string }[] }).users.map((u) => u.surname);
    };
    expect(await found("mueller")).toEqual(["Müller"]);
    expect(await found("MÜLLER")).toEqual(["Müller"]);
    expect(await found("ozturk")).toEqual(["Öztürk"]);
    expect(await found("ayse")).toEqual(["Öztürk"]);
    expect(await found("lefevre zoe")).toEqual(["Lefèvre"]);
    expect(await found("lukasz")).toEqual(["Wróbel"]);
    expect(await found("miller")).toEqual(["Miller"]);
    // LIKE's own characters are searched as themselves.
    expect(await found("%")).toEqual([]);
  });
});
