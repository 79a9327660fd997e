import { ErrorCode } from "@carecampus/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, createUser, login, PASSWORD, type TestContext } from "../../test/helpers";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

const call = (method: "GET" | "PATCH" | "DELETE", url: string, token: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe("GET /api/auth/users/{id}", () => {
  it("gives users their own account", async () => {
    const res = await call("GET", `/api/auth/users/${cast.users.employee.id}`, cast.tokens.employee);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: cast.users.employee.id,
      facility: { id: cast.facilityA.id, name: cast.facilityA.name },
      salutation: "-",
      avatar: "female",
      theme: "carely",
      language: "de",
    });
  });

  // who may read the employee of facility A
  it.each([
    ["superchris", 200],
    ["contentmanager", 200],
    ["administrator", 200],
    ["supervisor", 200],
    ["employeeB", 404],
    ["administratorB", 404],
  ] as const)("%s reading an employee of facility A → %i", async (who, status) => {
    const res = await call("GET", `/api/auth/users/${cast.users.employee.id}`, cast.tokens[who]);
    expect(res.statusCode).toBe(status);
    if (status === 404)
      expect(res.json()).toEqual({ error_code: ErrorCode.userNotFound, message: "User not found", status_code: 404 });
  });

  it("answers 404/1002 for an unknown id and 400 for a bad id", async () => {
    expect((await call("GET", "/api/auth/users/999999", cast.tokens.superchris)).json().error_code).toBe(
      ErrorCode.userNotFound,
    );
    expect((await call("GET", "/api/auth/users/abc", cast.tokens.superchris)).statusCode).toBe(400);
    expect((await call("GET", "/api/auth/users/-1", cast.tokens.superchris)).statusCode).toBe(400);
  });
});

describe("PATCH /api/auth/users/{id}", () => {
  it("changes the username and refuses one in use like any validation error (400/1001, case-insensitive)", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    const taken = await call("PATCH", `/api/auth/users/${u.id}`, token, {
      property: "login",
      value: { value: cast.users.supervisor.login.toUpperCase() },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({
      error_code: ErrorCode.loginInUse,
      message: "Username already in use",
      status_code: 400,
    });
    const ok = await call("PATCH", `/api/auth/users/${u.id}`, token, {
      property: "login",
      value: { value: `renamed-${u.id}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().login).toBe(`renamed-${u.id}`);
    await login(ctx, `renamed-${u.id}`);
  });

  it("refuses a username with spaces or empty", async () => {
    for (const value of ["has space", "", "   "]) {
      const res = await call("PATCH", `/api/auth/users/${cast.users.employee.id}`, cast.tokens.employee, {
        property: "login",
        value: { value },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error_code).toBe(ErrorCode.validation);
    }
  });

  it("changes the e-mail and refuses an invalid one", async () => {
    const ok = await call("PATCH", `/api/auth/users/${cast.users.employee.id}`, cast.tokens.employee, {
      property: "email",
      value: { value: "emma@example.org" },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().email).toBe("emma@example.org");
    const bad = await call("PATCH", `/api/auth/users/${cast.users.employee.id}`, cast.tokens.employee, {
      property: "email",
      value: { value: "not-an-email" },
    });
    expect(bad.statusCode).toBe(400);
  });

  it("changes the password: old one required, rule enforced, old sessions end", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    const url = `/api/auth/users/${u.id}`;
    const wrongOld = await call("PATCH", url, token, {
      property: "password",
      value: { password: "Nope-1234!", new_password: "Neu-Pass1!" },
    });
    expect(wrongOld.statusCode).toBe(400);
    expect(wrongOld.json().error_code).toBe(ErrorCode.invalidCredentials);
    const weak = await call("PATCH", url, token, {
      property: "password",
      value: { password: PASSWORD, new_password: "weakpass" },
    });
    expect(weak.statusCode).toBe(400);
    const ok = await call("PATCH", url, token, {
      property: "password",
      value: { password: PASSWORD, new_password: "Neu-Pass1!" },
    });
    expect(ok.statusCode).toBe(200);
    // The session that changed the password is over: log in again.
    expect((await call("GET", url, token)).statusCode).toBe(401);
    await login(ctx, u.login, "Neu-Pass1!");
    await expect(login(ctx, u.login, PASSWORD)).rejects.toThrow();
  });

  it("lets nobody but the user (and superchris) change an account", async () => {
    const res = await call("PATCH", `/api/auth/users/${cast.users.employee.id}`, cast.tokens.administrator, {
      property: "email",
      value: { value: "x@example.org" },
    });
    expect(res.statusCode).toBe(404);
  });

  it("refuses unknown properties and fields", async () => {
    for (const payload of [
      { property: "roles", value: { value: "superchris" } },
      { property: "email", value: { value: "a@b.de", x: 1 } },
    ]) {
      const res = await call("PATCH", `/api/auth/users/${cast.users.employee.id}`, cast.tokens.employee, payload);
      expect(res.statusCode).toBe(400);
    }
  });
});

describe("preferences", () => {
  it("reads and changes avatar, language and theme", async () => {
    const url = `/api/preferences/${cast.users.employee.id}`;
    expect((await call("GET", url, cast.tokens.employee)).json()).toEqual({
      avatar: "female",
      language: "de",
      theme: "carely",
      content_language: null,
    });
    for (const [property, value] of [
      ["avatar", "fox"],
      ["language", "br"],
      ["theme", "dark"],
    ]) {
      const res = await call("PATCH", url, cast.tokens.employee, { property, value });
      expect(res.statusCode).toBe(200);
    }
    expect((await call("GET", url, cast.tokens.employee)).json()).toEqual({
      avatar: "fox",
      language: "br",
      theme: "dark",
      content_language: null,
    });
  });

  it("refuses unknown values and other users' preferences", async () => {
    const url = `/api/preferences/${cast.users.employee.id}`;
    for (const payload of [
      { property: "avatar", value: "dragon" },
      { property: "language", value: "pt-br" },
      { property: "theme", value: "neon" },
      { property: "font", value: "x" },
    ]) {
      expect((await call("PATCH", url, cast.tokens.employee, payload)).statusCode).toBe(400);
    }
    expect((await call("GET", url, cast.tokens.administrator)).statusCode).toBe(404);
    expect((await call("PATCH", url, cast.tokens.supervisor, { property: "avatar", value: "pig" })).statusCode).toBe(
      404,
    );
    expect((await call("GET", url, cast.tokens.superchris)).statusCode).toBe(200);
  });
});

describe("DELETE /api/account/help_redirect_dialog", () => {
  it("stops offering the help redirect", async () => {
    const res = await call("DELETE", "/api/account/help_redirect_dialog", cast.tokens.supervisor);
    expect(res.statusCode).toBe(200);
    const me = await call("GET", `/api/auth/users/${cast.users.supervisor.id}`, cast.tokens.supervisor);
    expect(me.json().show_help_redirect).toBe(false);
  });

  it("needs a session", async () => {
    const res = await ctx.app.inject({ method: "DELETE", url: "/api/account/help_redirect_dialog" });
    expect(res.statusCode).toBe(401);
  });
});

describe("deleted users", () => {
  it("lose their session at once", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    const { users } = await import("../db/schema");
    const { eq } = await import("drizzle-orm");
    await ctx.deps.database.db.delete(users).where(eq(users.id, u.id));
    expect((await call("GET", `/api/auth/users/${u.id}`, token)).statusCode).toBe(401);
  });
});

describe("the installation's theme (THEME)", () => {
  it("is a new user's theme until they choose one; their choice wins, also when it is 'carely'", async () => {
    const ocean = await createTestApp({ env: { THEME: "ocean" } });
    try {
      const user = await createUser(ocean, ["employee"], null);
      const loggedIn = await ocean.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { login: user.login, password: PASSWORD },
      });
      expect(loggedIn.json().user.theme).toBe("ocean");
      const token = loggedIn.json().token as string;
      const url = `/api/preferences/${user.id}`;
      const read = (path: string) => ocean.app.inject({ method: "GET", url: path, headers: bearer(token) });
      expect((await read(url)).json().theme).toBe("ocean");
      expect((await read(`/api/auth/users/${user.id}`)).json().theme).toBe("ocean");
      const chosen = await ocean.app.inject({
        method: "PATCH",
        url,
        headers: bearer(token),
        payload: { property: "theme", value: "carely" },
      });
      expect(chosen.json().theme).toBe("carely");
      expect((await read(url)).json().theme).toBe("carely");
      expect((await read(`/api/auth/users/${user.id}`)).json().theme).toBe("carely");
    } finally {
      await ocean.close();
    }
  });
});

describe("account rename with invisible or formatting characters (issue 27)", () => {
  it("is refused with 1100, and the login stays", async () => {
    const u = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, u.login);
    for (const c of ["\u200B", "\u200D", "\uFEFF", "\u00AD", "\u2060", "\u200E", "\u202E", "\uFE0F"]) {
      const res = await call("PATCH", `/api/auth/users/${u.id}`, token, {
        property: "login",
        value: { value: `${cast.users.employee.login}${c}` },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        error_code: ErrorCode.validation,
        message: expect.stringContaining("invisible"),
        status_code: 400,
      });
    }
    expect((await call("GET", `/api/auth/users/${u.id}`, token)).json().login).toBe(u.login);
  });
});
