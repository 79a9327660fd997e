import { ErrorCode } from "@carecampus/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

describe("notifications", () => {
  it("lists a forgot-password notice for the administrator only, and marks it read", async () => {
    await ctx.app.inject({
      method: "POST",
      url: "/api/auth/forgotpassword",
      payload: { user_login: cast.users.employee.login },
    });
    // The administrators are informed after the answer (issue 14): wait for that work.
    await ctx.app.background.idle();
    const list = await ctx.app.inject({
      method: "GET",
      url: "/api/notifications",
      headers: bearer(cast.tokens.administrator),
    });
    expect(list.statusCode).toBe(200);
    const items = list.json();
    expect(items).toHaveLength(1);
    expect(items[0].Type).toBe("PASSWORD_RESET_REQUEST");
    expect(JSON.parse(items[0].CustomMessage)).toMatchObject({
      key: "notifications.passwordReset",
      values: { login: cast.users.employee.login },
    });

    for (const who of ["supervisor", "administratorB", "employee"] as const) {
      const other = await ctx.app.inject({
        method: "GET",
        url: "/api/notifications",
        headers: bearer(cast.tokens[who]),
      });
      expect(other.json()).toEqual([]);
      // Nobody else can mark it read.
      const del = await ctx.app.inject({
        method: "DELETE",
        url: `/api/notifications/${items[0].ID}`,
        headers: bearer(cast.tokens[who]),
      });
      expect(del.statusCode).toBe(404);
      expect(del.json().error_code).toBe(ErrorCode.notFound);
    }
    const del = await ctx.app.inject({
      method: "DELETE",
      url: `/api/notifications/${items[0].ID}`,
      headers: bearer(cast.tokens.administrator),
    });
    expect(del.statusCode).toBe(200);
    const after = await ctx.app.inject({
      method: "GET",
      url: "/api/notifications",
      headers: bearer(cast.tokens.administrator),
    });
    expect(after.json()).toEqual([]);
  });

  it("needs a session", async () => {
    expect((await ctx.app.inject({ method: "GET", url: "/api/notifications" })).statusCode).toBe(401);
  });
});
