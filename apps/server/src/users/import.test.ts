import { ErrorCode, type ImportProblem, type ImportRow } from "@carecampus/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, createUser, login, type TestContext } from "../../test/helpers";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let activityNames: string[];
let qualificationNames: string[];
type Who = keyof Awaited<ReturnType<typeof createCast>>["tokens"];

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  const list = async (url: string) =>
    (await ctx.app.inject({ url, headers: bearer(cast.tokens.superchris) }))
      .json()
      .map((x: { name: string }) => x.name);
  activityNames = await list("/api/filter/list/activityfocus");
  qualificationNames = await list("/api/filter/list/qualification");
});
afterAll(() => ctx.close());

const importAs = (who: Who, rows: unknown, query = "") =>
  ctx.app.inject({
    method: "POST",
    url: `/api/auth/admin/users${query}`,
    headers: bearer(cast.tokens[who]),
    payload: rows as object,
  });

let n = 0;
const row = (extra: Partial<ImportRow> = {}): ImportRow => {
  n += 1;
  return {
    surname: `Öztürk ${n}`,
    name: "Şükrü",
    login: `import.${n}`,
    facility: cast.facilityA.name,
    activities: [],
    qualifications: [],
    password: "Import-Pass1!",
    ...extra,
  };
};

const userCount = async (where = sql`true`) => {
  const rows = await ctx.deps.database.db.execute(sql`select count(*)::int as n from users where ${where}`);
  return Number((rows as unknown as { rows: { n: number }[] }).rows[0]?.n);
};
/** The current members (issue 28: an import archives, it never removes a row). */
const memberCount = () => userCount(sql`archived_at is null`);

const search = async (query: string) =>
  (
    await ctx.app.inject({
      url: `/api/auth/admin/users?query=${encodeURIComponent(query)}`,
      headers: bearer(cast.tokens.superchris),
    })
  ).json().users as {
    id: number;
    login: string;
    roles: string[];
    facility: { id: number } | null;
    activities: number[];
  }[];

describe("POST /api/auth/admin/users with an array (CSV import)", () => {
  it.each([
    ["employee", 403, ErrorCode.notAllowedToSeeEmployees],
    ["supervisor", 403, ErrorCode.forbidden],
    ["administrator", 403, ErrorCode.forbidden],
    ["administratorB", 403, ErrorCode.forbidden],
    ["contentmanager", 403, ErrorCode.forbidden],
  ] as const)("refuses %s (%s, %s) and writes nothing", async (who, status, code) => {
    const before = await userCount();
    const res = await importAs(who, [row()]);
    expect(res.statusCode).toBe(status);
    expect(res.json().error_code).toBe(code);
    expect(await userCount()).toBe(before);
  });

  it("creates employees with names matched case-insensitively, and they can log in", async () => {
    const first = row({
      facility: `  ${cast.facilityB.name.toUpperCase()} `,
      activities: [String(activityNames[0]).toLowerCase(), ` ${activityNames[1]} `],
      qualifications: [String(qualificationNames[2]).toUpperCase()],
      login: "lukasz.wrobel",
      name: "Łukasz",
      surname: "Wróbel",
    });
    const res = await importAs("superchris", [first, row()]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ created: 2, updated: 0, unchanged: 0, deleted: 0 });
    const [found] = await search("lukasz.wrobel");
    expect(found?.roles).toEqual(["employee"]);
    expect(found?.facility?.id).toBe(cast.facilityB.id);
    expect(found?.activities).toHaveLength(2);
    await expect(login(ctx, "lukasz.wrobel", "Import-Pass1!")).resolves.toBeTruthy();
  });

  it("is idempotent: the same file again changes nothing and says so; a change updates", async () => {
    const rows = [row(), row(), row()];
    expect((await importAs("superchris", rows)).json()).toEqual({ created: 3, updated: 0, unchanged: 0, deleted: 0 });
    expect((await importAs("superchris", rows)).json()).toEqual({ created: 0, updated: 0, unchanged: 3, deleted: 0 });
    // Existing users keep their password: the column may be empty for them.
    const changed = rows.map((r, i) => (i === 1 ? { ...r, surname: "Geändert", password: "" } : r));
    expect((await importAs("superchris", changed)).json()).toEqual({
      created: 0,
      updated: 1,
      unchanged: 2,
      deleted: 0,
    });
    expect((await search("Geändert")).map((u) => u.login)).toEqual([rows[1]?.login]);
    await expect(login(ctx, String(rows[1]?.login), "Import-Pass1!")).resolves.toBeTruthy();
  });

  it("matches logins as the database folds them, never answering 500 for Turkish İ or Polish Ł", async () => {
    await createUser(ctx, ["employee"], cast.facilityA.id, { login: "İLKAY.ŁUKASZ" });
    const res = await importAs("superchris", [
      row({ login: "ilkay.łukasz", password: "" }),
      row({ login: "İlkay.Ünal" }),
    ]);
    // The database's lower() decides whether ilkay and İLKAY are one login; either way the answer is clean.
    expect([200, 400]).toContain(res.statusCode);
    if (res.statusCode === 200) expect(res.json().created + res.json().updated + res.json().unchanged).toBe(2);
    else expect(res.json().problems).toEqual([{ row: 0, field: "password", code: "passwordRequired" }]);
  });

  it("refuses the whole file when one row is bad, listing every bad row with its reason", async () => {
    const staff = cast.users.administrator.login;
    const before = await userCount();
    const rows = [
      row(),
      row({ facility: "Haus Nirgendwo" }),
      row({ login: "dup.login" }),
      row({ login: "DUP.LOGIN" }),
      row({ login: staff.toUpperCase() }),
      row({ password: "short" }),
      row({ activities: ["Raumfahrt"] }),
      row({ qualifications: ["Astronaut/in"] }),
      row({ name: "" }),
      row({ login: "mit leerzeichen" }),
      row({ password: "" }),
      row(),
    ];
    const res = await importAs("superchris", rows);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error_code).toBe(ErrorCode.validation);
    expect(body.status_code).toBe(400);
    expect(body.message).toMatch(/^9 row/);
    const problems = (body.problems as ImportProblem[]).map((p) => [p.row, p.field, p.code]);
    expect(problems).toEqual([
      [1, "facility", "unknownFacility"],
      [3, "login", "duplicateInFile"],
      [4, "login", "loginInUse"],
      [5, "password", "passwordRule"],
      [6, "activities", "unknownActivity"],
      [7, "qualifications", "unknownQualification"],
      [8, "name", "required"],
      [9, "login", "spaces"],
      [10, "password", "passwordRequired"],
    ]);
    expect(body.problems.find((p: ImportProblem) => p.row === 6).value).toBe("Raumfahrt");
    expect(await userCount()).toBe(before);
  });

  it("deleteNotIncludedUsers archives only employees of the file's facilities, never staff or the caller", async () => {
    const fa = cast.facilityA;
    const stay = await createUser(ctx, ["employee"], fa.id);
    const leave = await createUser(ctx, ["employee"], fa.id);
    const supervisorAndEmployee = await createUser(ctx, ["supervisor", "employee"], fa.id);
    const employeeOfB = cast.users.employeeB;
    // An employee with an umlaut in the surname, to see the list sorted as a reader expects.
    const umlaut = row();
    expect((await importAs("superchris", [umlaut])).statusCode).toBe(200);
    const file = [row({ login: stay.login, password: "" })];
    const before = await userCount();
    const members = await memberCount();
    const dry = await importAs("superchris", file, "?deleteNotIncludedUsers=true&dryRun=true");
    expect(dry.statusCode, dry.body).toBe(200);
    const wouldDelete = dry.json().deleted as number;
    expect(wouldDelete).toBeGreaterThanOrEqual(2);
    // The dry run names whom it would delete (for the confirmation), sorted by surname and name.
    const named = dry.json().deleted_users as { id: number; name: string; surname: string; login: string }[];
    expect(named).toHaveLength(wouldDelete);
    expect(named).toContainEqual({ id: leave.id, name: "Test", surname: expect.any(String), login: leave.login });
    const ids = named.map((u) => u.id);
    for (const kept of [stay.id, supervisorAndEmployee.id, employeeOfB.id, cast.users.superchris.id]) {
      expect(ids).not.toContain(kept);
    }
    // In reading order: umlauts beside their base letter, numbers by value (User 9 before User 10).
    const collator = new Intl.Collator("de", { sensitivity: "base", numeric: true });
    const order = named.map((u) => [u.surname, u.name, u.login] as const);
    const compare = (a: readonly string[], b: readonly string[]) =>
      a.reduce((found, part, i) => found || collator.compare(part, b[i] ?? ""), 0);
    expect(order).toEqual([...order].sort(compare));
    expect(named.map((u) => u.login)).toContain(umlaut.login);
    expect(await userCount(), "a dry run writes nothing").toBe(before);
    const res = await importAs("superchris", file, "?deleteNotIncludedUsers=true");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ updated: 1, deleted: wouldDelete });
    expect((res.json().deleted_users as { id: number }[]).map((u) => u.id)).toEqual(ids);
    expect(await userCount(), "archived, not deleted").toBe(before);
    expect(await memberCount()).toBe(members - wouldDelete);
    const remaining = new Set((await search("")).map((u) => u.id));
    expect(remaining.has(stay.id)).toBe(true);
    expect(remaining.has(leave.id)).toBe(false);
    for (const kept of [
      supervisorAndEmployee.id,
      employeeOfB.id,
      cast.users.administrator.id,
      cast.users.supervisor.id,
      cast.users.superchris.id,
    ]) {
      expect(remaining.has(kept), `user ${kept} kept`).toBe(true);
    }
    // Without the flag nothing is deleted.
    const other = await createUser(ctx, ["employee"], fa.id);
    const kept = (await importAs("superchris", file)).json();
    expect(kept.deleted).toBe(0);
    expect(kept, "no list without the flag").not.toHaveProperty("deleted_users");
    expect((await search(other.login)).length).toBe(1);
  });

  it("refuses malformed bodies with 400 and never 500", async () => {
    for (const payload of [
      [],
      [{ ...row(), role: "superchris" }],
      [{ surname: "x" }],
      [{ ...row(), activities: "Pflege" }],
      [null],
      [{ ...row(), login: "x\u0000y" }],
    ]) {
      const res = await importAs("superchris", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().status_code).toBe(400);
    }
    const query = await importAs("superchris", [row()], "?deleteNotIncludedUsers=maybe");
    expect(query.statusCode).toBe(400);
  });

  it("honours MAX_USERS with 1012, counting the deletions of the same import", async () => {
    const limited = await createTestApp({ env: { MAX_USERS: "3" } });
    try {
      const limitedCast = await createCast(limited);
      const res = await limited.app.inject({
        method: "POST",
        url: "/api/auth/admin/users",
        headers: bearer(limitedCast.tokens.superchris),
        payload: [{ ...row(), facility: limitedCast.facilityA.name }],
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().error_code).toBe(ErrorCode.maxUsersReached);
    } finally {
      await limited.close();
    }
  });

  it("imports 1 000 users in one call while the server keeps answering", async () => {
    const rows = Array.from({ length: 1000 }, (_, i) =>
      row({
        login: `bulk.${i}`,
        surname: `Żółć ${i}`,
        activities: [String(activityNames[i % activityNames.length])],
        qualifications: [String(qualificationNames[i % qualificationNames.length])],
      }),
    );
    const before = await userCount();
    let finished = false;
    const running = importAs("superchris", rows).then((res) => {
      finished = true;
      return res;
    });
    // Hashing runs on worker threads: a request made meanwhile is answered before the import ends.
    const health = await ctx.app.inject({ url: "/api/health" });
    expect(health.statusCode).toBe(200);
    expect(finished).toBe(false);
    const res = await running;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ created: 1000, updated: 0, unchanged: 0, deleted: 0 });
    expect(await userCount()).toBe(before + 1000);
    expect((await importAs("superchris", rows)).json()).toEqual({
      created: 0,
      updated: 0,
      unchanged: 1000,
      deleted: 0,
    });
    // 2 000 argon2 hashes on two cores: a machine busy with other work needs minutes, not 30 s.
  }, 180_000);
});

describe("logins with invisible or formatting characters (issue 27)", () => {
  it("are refused by the import and its preview, naming the row and showing the character", async () => {
    const before = await userCount();
    const rows = [row(), row({ login: "import.unsichtbar\u200B" }), row({ login: "\u202Eimport.bidi" }), row()];
    for (const query of ["?dryRun=true", ""]) {
      const res = await importAs("superchris", rows, query);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });
      expect(res.json().problems).toEqual([
        { row: 1, field: "login", code: "invisible", value: "import.unsichtbar<U+200B>" },
        { row: 2, field: "login", code: "invisible", value: "<U+202E>import.bidi" },
      ]);
    }
    expect(await userCount()).toBe(before);
  });
});
