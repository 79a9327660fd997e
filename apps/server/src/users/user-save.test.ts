// The user form's one save: the user, their training matrix and additional qualifications in one
// transaction (issue "Foundations": no half-saved user any more).
import { type Catalogue, ErrorCode } from "@carecampus/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { DEMO_CONTENT } from "../bootstrap";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let catalogue: Catalogue;
let extraA: number;
let extraA2: number;
let extraB: number;
type Who = keyof Awaited<ReturnType<typeof createCast>>["tokens"];

const call = (who: Who, method: "GET" | "POST" | "PATCH", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: bearer(cast.tokens[who]),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  await importPackage(ctx.deps.database.db, loadPackage(DEMO_CONTENT));
  catalogue = (await call("superchris", "GET", "/api/filter/list/topics")).json();
  const extra = async (name: string, facility: number) =>
    (await call("superchris", "POST", "/api/external", { name, facility })).json().id as number;
  extraA = await extra("Praxisanleitung", cast.facilityA.id);
  extraA2 = await extra("Wundexperte", cast.facilityA.id);
  extraB = await extra("Hygienebeauftragte", cast.facilityB.id);
});
afterAll(() => ctx.close());

let n = 0;
const person = (extra: Record<string, unknown> = {}) => {
  n += 1;
  return { name: "Neu", surname: `Person ${n}`, login: `save.${n}`, password: "Neu-Pass-1!", ...extra };
};
const trainingIds = () => catalogue.flatMap((t) => t.trainings.map((x) => x.id));
const matrixIds = async (userId: number) => {
  const m = (await call("administrator", "GET", `/api/filter/admin/trainingsmatrix/${userId}`)).json();
  return {
    id: m.id as number | null,
    ids: m.topics.flatMap((t: { trainings: { training_id: number }[] }) =>
      t.trainings.map((x) => x.training_id),
    ) as number[],
  };
};
const extrasOf = async (userId: number) =>
  ((await call("administrator", "GET", `/api/external/user/${userId}`)).json() as { id: number }[])
    .map((q) => q.id)
    .sort();
const usersNamed = async (login: string) =>
  (await call("superchris", "GET", `/api/auth/admin/users?query=${login}`)).json().users.length as number;

describe("POST /api/auth/admin/users with trainings and additional qualifications", () => {
  it("creates the user, the matrix and the qualifications together", async () => {
    const picked = trainingIds().slice(0, 3);
    const res = await call("administrator", "POST", "/api/auth/admin/users", {
      ...person(),
      trainings: picked,
      additional_qualifications: [extraA, extraA2],
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().id;
    expect((await matrixIds(id)).ids.sort()).toEqual([...picked].sort());
    expect(await extrasOf(id)).toEqual([extraA, extraA2].sort());
  });

  it("without trainings the new user has no matrix: every training is assigned", async () => {
    const id = (await call("administrator", "POST", "/api/auth/admin/users", person())).json().id;
    const m = await matrixIds(id);
    expect(m.id).toBeNull();
    expect(m.ids.length).toBe(trainingIds().length);
  });

  it("an unknown training or another facility's qualification refuses the whole save: no user is left", async () => {
    const p1 = person();
    const bad = await call("administrator", "POST", "/api/auth/admin/users", { ...p1, trainings: [999_999] });
    expect(bad.statusCode).toBe(404);
    expect(bad.json().error_code).toBe(ErrorCode.trainingNotFound);
    expect(await usersNamed(p1.login)).toBe(0);

    const p2 = person();
    const foreign = await call("administrator", "POST", "/api/auth/admin/users", {
      ...p2,
      additional_qualifications: [extraB],
    });
    expect(foreign.statusCode).toBe(400);
    expect(await usersNamed(p2.login)).toBe(0);
  });
});

describe("PATCH /api/auth/admin/users/{id} with trainings and additional qualifications", () => {
  it("changes all three at once, and a refused part changes nothing", async () => {
    const id = (await call("administrator", "POST", "/api/auth/admin/users", person())).json().id;
    const picked = trainingIds().slice(2, 5);
    const ok = await call("administrator", "PATCH", `/api/auth/admin/users/${id}`, {
      name: "Geändert",
      trainings: picked,
      additional_qualifications: [extraA],
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().name).toBe("Geändert");
    expect((await matrixIds(id)).ids.sort()).toEqual([...picked].sort());
    expect(await extrasOf(id)).toEqual([extraA]);

    const refused = await call("administrator", "PATCH", `/api/auth/admin/users/${id}`, {
      name: "Nicht gespeichert",
      trainings: trainingIds().slice(0, 1),
      additional_qualifications: [extraB],
    });
    expect(refused.statusCode).toBe(400);
    expect((await call("administrator", "GET", `/api/auth/admin/users/${id}`)).json().name).toBe("Geändert");
    expect((await matrixIds(id)).ids.sort()).toEqual([...picked].sort());
    expect(await extrasOf(id)).toEqual([extraA]);
  });

  it("trainings: null removes the matrix (every training again); absent fields stay as they are", async () => {
    const id = (
      await call("administrator", "POST", "/api/auth/admin/users", {
        ...person(),
        trainings: trainingIds().slice(0, 1),
        additional_qualifications: [extraA],
      })
    ).json().id;
    await call("administrator", "PATCH", `/api/auth/admin/users/${id}`, { surname: "Nur Name" });
    expect((await matrixIds(id)).ids).toHaveLength(1);
    expect(await extrasOf(id)).toEqual([extraA]);
    await call("administrator", "PATCH", `/api/auth/admin/users/${id}`, { trainings: null });
    const m = await matrixIds(id);
    expect(m.id).toBeNull();
    expect(m.ids).toHaveLength(trainingIds().length);
  });

  it("a move to another facility drops the old facility's qualifications", async () => {
    const id = (
      await call("superchris", "POST", "/api/auth/admin/users", {
        ...person(),
        facility: cast.facilityA.id,
        additional_qualifications: [extraA],
      })
    ).json().id;
    const moved = await call("superchris", "PATCH", `/api/auth/admin/users/${id}`, { facility: cast.facilityB.id });
    expect(moved.statusCode).toBe(200);
    const left = (await call("superchris", "GET", `/api/external/user/${id}`)).json();
    expect(left).toEqual([]);
  });

  it("a supervisor cannot save assignments with a user (403), and nothing changes", async () => {
    const res = await call("supervisor", "PATCH", `/api/auth/admin/users/${cast.users.employee.id}`, {
      trainings: [],
    });
    expect(res.statusCode).toBe(403);
    expect((await matrixIds(cast.users.employee.id)).id).toBeNull();
  });
});
