import { ErrorCode } from "@carecampus/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, createUser, login, PASSWORD, type TestContext } from "../../test/helpers";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
type Who = keyof Awaited<ReturnType<typeof createCast>>["tokens"];

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

const call = (who: Who | string, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: bearer(who in cast.tokens ? cast.tokens[who as Who] : who),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

let n = 0;
const newUser = (extra: Record<string, unknown> = {}) => {
  n += 1;
  return { name: "Neu", surname: `Person ${n}`, login: `neu.${n}`, password: "Neu-Pass-1!", ...extra };
};

describe("GET /api/auth/admin/users", () => {
  it.each([
    ["superchris", 200, true],
    ["contentmanager", 200, true],
    ["administrator", 200, false],
    ["supervisor", 200, false],
  ] as const)("%s sees %s users (other facility: %s)", async (who, status, seesB) => {
    const res = await call(who, "GET", "/api/auth/admin/users");
    expect(res.statusCode).toBe(status);
    const ids = res.json().users.map((u: { id: number }) => u.id);
    expect(ids).toContain(cast.users.employee.id);
    expect(ids.includes(cast.users.employeeB.id)).toBe(seesB);
    expect(res.json().total).toBe(ids.length);
  });

  it("refuses employees with 1015", async () => {
    const res = await call("employee", "GET", "/api/auth/admin/users");
    expect(res.statusCode).toBe(403);
    expect(res.json().error_code).toBe(ErrorCode.notAllowedToSeeEmployees);
  });

  it("searches name, surname and login, trimmed, with LIKE characters taken literally", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id, { login: "zoë.search" });
    const hit = await call(
      "administrator",
      "GET",
      `/api/auth/admin/users?query=${encodeURIComponent("  ZOË.SEARCH ")}`,
    );
    expect(hit.json().users.map((x: { id: number }) => x.id)).toEqual([u.id]);
    expect((await call("administrator", "GET", "/api/auth/admin/users?query=%25")).json().users).toEqual([]);
    // Scope holds in search too.
    expect((await call("administratorB", "GET", "/api/auth/admin/users?query=zo")).json().users).toEqual([]);
  });
});

describe("GET /api/auth/admin/users/{id}", () => {
  it.each([
    ["superchris", 200],
    ["contentmanager", 200],
    ["administrator", 200],
    ["supervisor", 200],
    ["administratorB", 404],
    ["employeeB", 403],
    ["employee", 403],
  ] as const)("%s reading an employee of facility A → %i", async (who, status) => {
    const res = await call(who, "GET", `/api/auth/admin/users/${cast.users.employee.id}`);
    expect(res.statusCode).toBe(status);
    if (status === 404) expect(res.json().error_code).toBe(ErrorCode.userNotFound);
    if (status === 200) expect(res.json()).toMatchObject({ roles: ["employee"], facility: { id: cast.facilityA.id } });
  });
});

describe("POST /api/auth/admin/users", () => {
  it.each([
    ["superchris", 200],
    ["contentmanager", 200],
    ["administrator", 200],
    ["supervisor", 403],
    ["employee", 403],
    ["administratorB", 404],
  ] as const)("%s creating an employee of facility A → %i", async (who, status) => {
    const res = await call(
      who,
      "POST",
      "/api/auth/admin/users",
      newUser({ roles: ["employee"], facility: cast.facilityA.id }),
    );
    expect(res.statusCode, res.body).toBe(status);
    if (status === 404) expect(res.json().error_code).toBe(ErrorCode.facilityNotFound);
  });

  it.each([
    ["administrator", ["contentmanager"], 403],
    ["administrator", ["superchris"], 403],
    ["contentmanager", ["superchris"], 403],
    ["contentmanager", ["contentmanager"], 200],
    ["superchris", ["superchris"], 200],
    ["administrator", ["supervisor", "employee"], 200],
  ] as const)("%s granting %j → %i", async (who, roles, status) => {
    const facility = roles.some((r) => r === "contentmanager" || r === "superchris") ? null : cast.facilityA.id;
    const res = await call(who, "POST", "/api/auth/admin/users", newUser({ roles, facility }));
    expect(res.statusCode, res.body).toBe(status);
  });

  it("defaults empty roles to employee and an administrator's users to the own facility", async () => {
    const res = await call("administrator", "POST", "/api/auth/admin/users", newUser({ roles: [] }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ roles: ["employee"], facility: { id: cast.facilityA.id } });
    await login(ctx, res.json().login, "Neu-Pass-1!");
  });

  it.each([
    ["a weak password", { password: "schwach" }, 400, ErrorCode.validation],
    ["an empty name", { name: "  " }, 400, ErrorCode.validation],
    ["a login with a space", { login: "mit space" }, 400, ErrorCode.validation],
    ["a login in use (other case)", { login: "$ADMIN" }, 409, ErrorCode.loginInUse],
    ["no facility for an employee", { roles: ["employee"], facility: null }, 400, ErrorCode.facilityRequired],
    ["a facility for a Super-Admin", { roles: ["contentmanager"], facility: 1 }, 400, ErrorCode.validation],
    ["an unknown facility", { roles: ["employee"], facility: 999999 }, 404, ErrorCode.facilityNotFound],
    ["an unknown qualification", { roles: ["employee"], qualifications: [999999] }, 400, ErrorCode.validation],
    ["an unknown field", { roles: ["employee"], admin: true }, 400, ErrorCode.validation],
  ] as const)("refuses %s", async (_name, extra, status, code) => {
    const fields: Record<string, unknown> = { ...extra };
    if (fields.login === "$ADMIN") fields.login = cast.users.administrator.login.toUpperCase();
    const body = newUser({ facility: cast.facilityA.id, ...fields });
    const res = await call("contentmanager", "POST", "/api/auth/admin/users", body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error_code).toBe(code);
  });

  it("stops at MAX_USERS with 1012", async () => {
    const limited = await createTestApp({ env: { MAX_USERS: "2" } });
    try {
      const cm = await createUser(limited, ["contentmanager"], null);
      const token = await login(limited, cm.login);
      const create = () =>
        limited.app.inject({
          method: "POST",
          url: "/api/auth/admin/users",
          headers: bearer(token),
          payload: newUser({ roles: ["contentmanager"] }),
        });
      expect((await create()).statusCode).toBe(200);
      const res = await create();
      expect(res.statusCode).toBe(409);
      expect(res.json().error_code).toBe(ErrorCode.maxUsersReached);
    } finally {
      await limited.close();
    }
  });
});

describe("PATCH /api/auth/admin/users/{id}", () => {
  it("lets an administrator edit the own facility's users, within the rules", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const url = `/api/auth/admin/users/${u.id}`;
    const ok = await call("administrator", "PATCH", url, {
      name: "Geändert",
      salutation: "Ms",
      roles: ["supervisor", "employee"],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ name: "Geändert", salutation: "Ms", roles: ["supervisor", "employee"] });
    expect((await call("administrator", "PATCH", url, { roles: ["contentmanager"] })).statusCode).toBe(403);
    expect((await call("administrator", "PATCH", url, { facility: cast.facilityB.id })).json().error_code).toBe(
      ErrorCode.facilityNotFound,
    );
    expect((await call("administrator", "PATCH", url, { login: cast.users.supervisor.login })).json().error_code).toBe(
      ErrorCode.loginInUse,
    );
    expect((await call("supervisor", "PATCH", url, { name: "X" })).statusCode).toBe(403);
    expect((await call("administratorB", "PATCH", url, { name: "X" })).statusCode).toBe(404);
    // A Super-Admin moves the user to facility B.
    const moved = await call("contentmanager", "PATCH", url, { facility: cast.facilityB.id });
    expect(moved.json().facility.id).toBe(cast.facilityB.id);
    expect((await call("administrator", "GET", url)).statusCode).toBe(404);
  });

  it("a new password follows the rule and ends the user's sessions", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    const url = `/api/auth/admin/users/${u.id}`;
    expect((await call("administrator", "PATCH", url, { password: "kurz" })).statusCode).toBe(400);
    expect((await call("administrator", "PATCH", url, { password: "Neu-Pass-2!" })).statusCode).toBe(200);
    expect((await call(token, "GET", `/api/auth/users/${u.id}`)).statusCode).toBe(401);
    await login(ctx, u.login, "Neu-Pass-2!");
  });

  it("nobody raises their own roles", async () => {
    const res = await call("administrator", "PATCH", `/api/auth/admin/users/${cast.users.administrator.id}`, {
      roles: ["administrator", "supervisor"],
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("DELETE /api/auth/admin/users/{id}", () => {
  it.each([
    ["supervisor", 403],
    ["employee", 403],
    ["administratorB", 404],
    ["administrator", 200],
  ] as const)("%s deleting an employee of facility A → %i", async (who, status) => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const res = await call(who, "DELETE", `/api/auth/admin/users/${u.id}`);
    expect(res.statusCode).toBe(status);
    // Archived (issue 28): no longer a current member, so unknown to the user calls.
    const after = await call("superchris", "GET", `/api/auth/admin/users/${u.id}`);
    expect(after.statusCode).toBe(status === 200 ? 404 : 200);
  });

  it("never deletes oneself or a user with a role one cannot grant", async () => {
    expect(
      (await call("administrator", "DELETE", `/api/auth/admin/users/${cast.users.administrator.id}`)).statusCode,
    ).toBe(403);
    expect(
      (await call("administrator", "DELETE", `/api/auth/admin/users/${cast.users.superchris.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await call("contentmanager", "DELETE", `/api/auth/admin/users/${cast.users.superchris.id}`)).statusCode,
    ).toBe(403);
  });
});

describe("facilities and reference lists", () => {
  it("lists facilities by scope", async () => {
    const all = (await call("contentmanager", "GET", "/api/auth/admin/facilities"))
      .json()
      .map((f: { id: number }) => f.id);
    expect(all).toEqual(expect.arrayContaining([cast.facilityA.id, cast.facilityB.id]));
    const own = (await call("administrator", "GET", "/api/auth/admin/facilities")).json();
    expect(own).toEqual([{ id: cast.facilityA.id, name: cast.facilityA.name }]);
    expect((await call("supervisor", "GET", "/api/auth/admin/facilities")).statusCode).toBe(403);
    expect((await call("employee", "GET", "/api/auth/admin/facilities")).statusCode).toBe(403);
  });

  it("creates facilities (Super-Admin), unique by name, up to MAX_FACILITIES", async () => {
    const ok = await call("contentmanager", "POST", "/api/auth/admin/facilities", { name: " Haus Rosengarten " });
    expect(ok.json()).toMatchObject({ name: "Haus Rosengarten" });
    expect(
      (await call("superchris", "POST", "/api/auth/admin/facilities", { name: "haus rosengarten" })).statusCode,
    ).toBe(409);
    expect((await call("administrator", "POST", "/api/auth/admin/facilities", { name: "Haus X" })).statusCode).toBe(
      403,
    );
    expect((await call("contentmanager", "POST", "/api/auth/admin/facilities", { name: "  " })).statusCode).toBe(400);
    const limited = await createTestApp({ env: { MAX_FACILITIES: "1" } });
    try {
      const cm = await createUser(limited, ["contentmanager"], null);
      const token = await login(limited, cm.login, PASSWORD);
      const post = (name: string) =>
        limited.app.inject({
          method: "POST",
          url: "/api/auth/admin/facilities",
          headers: bearer(token),
          payload: { name },
        });
      expect((await post("Eins")).statusCode).toBe(200);
      expect((await post("Zwei")).json().error_code).toBe(ErrorCode.maxFacilitiesReached);
    } finally {
      await limited.close();
    }
  });

  it("serves the qualification and area-of-focus lists", async () => {
    const q = (await call("administrator", "GET", "/api/filter/list/qualification")).json();
    expect(q.length).toBeGreaterThan(20);
    expect(q.map((x: { name: string }) => x.name)).toContain("Pflegefachfrau/Pflegefachmann");
    const a = (await call("employee", "GET", "/api/filter/list/activityfocus")).json();
    expect(a.length).toBeGreaterThan(10);
    expect((await ctx.app.inject({ method: "GET", url: "/api/filter/list/qualification" })).statusCode).toBe(401);
  });
});

describe("logins with invisible or formatting characters (issue 27)", () => {
  const invisible = ["\u200B", "\u200D", "\uFEFF", "\u00AD", "\u2060", "\u200E", "\u202E", "\uFE0F"];

  it("are refused on create and edit with 1100, and nobody is created or renamed", async () => {
    const target = await createUser(ctx, ["employee"], cast.facilityA.id);
    for (const c of invisible) {
      for (const loginName of [`${cast.users.employee.login}${c}`, `${c}neu.unsichtbar`]) {
        const created = await call(
          "administrator",
          "POST",
          "/api/auth/admin/users",
          newUser({ login: loginName, roles: ["employee"], facility: cast.facilityA.id }),
        );
        expect(created.statusCode, `${JSON.stringify(loginName)}: ${created.body}`).toBe(400);
        expect(created.json()).toEqual({
          error_code: ErrorCode.validation,
          message: expect.stringContaining("invisible"),
          status_code: 400,
        });
        const edited = await call("administrator", "PATCH", `/api/auth/admin/users/${target.id}`, { login: loginName });
        expect(edited.statusCode, edited.body).toBe(400);
        expect(edited.json().error_code).toBe(ErrorCode.validation);
      }
    }
    const found = await call("administrator", "GET", "/api/auth/admin/users?query=unsichtbar");
    expect(found.json().users).toEqual([]);
    expect((await call("administrator", "GET", `/api/auth/admin/users/${target.id}`)).json().login).toBe(target.login);
  });

  it("still takes umlauts, ß and accents", async () => {
    const created = await call(
      "administrator",
      "POST",
      "/api/auth/admin/users",
      newUser({ login: `Jürgen.Groß-Hélène.${n}`, roles: ["employee"], facility: cast.facilityA.id }),
    );
    expect(created.statusCode, created.body).toBe(200);
  });
});
