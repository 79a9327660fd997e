import { type Catalogue, ErrorCode } from "@carecampus/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createCast, createTestApp, createUser, login, type TestContext } from "../../test/helpers";
import { DEMO_CONTENT } from "../bootstrap";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let catalogue: Catalogue;
type Who = keyof Awaited<ReturnType<typeof createCast>>["tokens"];

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  await importPackage(ctx.deps.database.db, loadPackage(DEMO_CONTENT));
  catalogue = (await call("superchris", "GET", "/api/filter/list/topics")).json();
});
afterAll(() => ctx.close());

function call(who: Who | string, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) {
  return ctx.app.inject({
    method,
    url,
    headers: bearer(who in (cast?.tokens ?? {}) ? cast.tokens[who as Who] : who),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

const topicA = () => catalogue[0] as Catalogue[number];
const topicB = () => catalogue[1] as Catalogue[number];
const matrixOf = (userId: number, picks: { topic: Catalogue[number]; trainings: number }[]) => ({
  user_id: userId,
  topics: picks.map((p) => ({
    topic_id: p.topic.id,
    trainings: p.topic.trainings.slice(0, p.trainings).map((t) => ({ training_id: t.id })),
  })),
});

describe("GET /api/filter/list/topics (catalogue)", () => {
  it("lists every current topic with its trainings for staff, refuses employees", async () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(2);
    expect(catalogue.flatMap((t) => t.trainings).some((t) => t.passive)).toBe(true);
    for (const who of ["contentmanager", "administrator", "supervisor"] as const) {
      expect((await call(who, "GET", "/api/filter/list/topics")).json()).toEqual(catalogue);
    }
    const res = await call("employee", "GET", "/api/filter/list/topics");
    expect(res.statusCode).toBe(403);
    expect(res.json().error_code).toBe(ErrorCode.notAllowedToSeeEmployees);
  });
});

describe("training matrix", () => {
  // Target: an employee of facility A. Expected status per caller for GET and POST.
  const table: [Who, number, number][] = [
    ["superchris", 200, 200],
    ["contentmanager", 200, 200],
    ["administrator", 200, 200],
    ["supervisor", 200, 403],
    ["employee", 403, 403],
    ["administratorB", 404, 404],
  ];

  it.each(table)("%s: GET %s, POST %s for an employee of facility A", async (who, getStatus, postStatus) => {
    const target = await createUser(ctx, ["employee"], cast.facilityA.id);
    const got = await call(who, "GET", `/api/filter/admin/trainingsmatrix/${target.id}`);
    expect(got.statusCode).toBe(getStatus);
    if (getStatus === 404) expect(got.json().error_code).toBe(ErrorCode.userNotFound);
    const posted = await call(
      who,
      "POST",
      "/api/filter/admin/trainingsmatrix",
      matrixOf(target.id, [{ topic: topicA(), trainings: 1 }]),
    );
    expect(posted.statusCode).toBe(postStatus);
    // A refused save leaves the user assigned to everything.
    const after = await call("superchris", "GET", `/api/filter/admin/trainingsmatrix/${target.id}`);
    expect(after.json().id === null).toBe(postStatus !== 200);
  });

  it("starts with every training assigned (id null) and replaces the set on save", async () => {
    const target = await createUser(ctx, ["employee"], cast.facilityA.id);
    const initial = (await call("administrator", "GET", `/api/filter/admin/trainingsmatrix/${target.id}`)).json();
    expect(initial.id).toBeNull();
    expect(initial.topics.flatMap((t: { trainings: unknown[] }) => t.trainings)).toHaveLength(
      catalogue.flatMap((t) => t.trainings).length,
    );
    const body = matrixOf(target.id, [
      { topic: topicA(), trainings: 1 },
      { topic: topicB(), trainings: 2 },
    ]);
    const saved = await call("administrator", "POST", "/api/filter/admin/trainingsmatrix", body);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ id: target.id, ...body });
    // An empty matrix is a matrix: nothing assigned.
    const empty = await call("administrator", "POST", "/api/filter/admin/trainingsmatrix", {
      user_id: target.id,
      topics: [],
    });
    expect(empty.json()).toEqual({ id: target.id, user_id: target.id, topics: [] });
  });

  it("decides what the employee learns: topics, trainings, counts and access", async () => {
    const target = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, target.login);
    const before = (await call(token, "GET", "/api/progress/topics")).json();
    expect(before).toHaveLength(catalogue.length);
    await call(
      "administrator",
      "POST",
      "/api/filter/admin/trainingsmatrix",
      matrixOf(target.id, [{ topic: topicB(), trainings: 1 }]),
    );
    const topics = (await call(token, "GET", "/api/progress/topics")).json();
    expect(topics.map((t: { id: number }) => t.id)).toEqual([topicB().id]);
    expect(topics[0].trainings).toEqual([topicB().trainings[0]?.id]);
    const { trainings } = (await call(token, "GET", `/api/progress/topics/${topicB().id}/trainings`)).json();
    expect(trainings.map((t: { id: number }) => t.id)).toEqual([topicB().trainings[0]?.id]);
    const unassigned = topicB().trainings[1]?.id;
    const refused = await call(
      token,
      "GET",
      `/api/progress/topics/${topicB().id}/trainings/${unassigned}/questionnaires`,
    );
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error_code).toBe(ErrorCode.trainingNotFound);
    const progress = (await call("administrator", "GET", `/api/progress/admin/users/${target.id}`)).json();
    expect(progress.certificate_total).toBe(1);
  });

  it("refuses a training listed under a topic it does not belong to, or unknown, writing nothing", async () => {
    const target = await createUser(ctx, ["employee"], cast.facilityA.id);
    const wrongTopic = {
      user_id: target.id,
      topics: [{ topic_id: topicA().id, trainings: [{ training_id: topicB().trainings[0]?.id }] }],
    };
    for (const body of [
      wrongTopic,
      { user_id: target.id, topics: [{ topic_id: topicA().id, trainings: [{ training_id: 999_999 }] }] },
    ]) {
      const res = await call("administrator", "POST", "/api/filter/admin/trainingsmatrix", body);
      expect(res.statusCode).toBe(404);
      expect(res.json().error_code).toBe(ErrorCode.trainingNotFound);
    }
    for (const body of [
      { user_id: target.id },
      { user_id: target.id, topics: [{ topic_id: "x", trainings: [] }] },
      { user_id: target.id, topics: [], extra: 1 },
      { user_id: -1, topics: [] },
    ]) {
      expect((await call("administrator", "POST", "/api/filter/admin/trainingsmatrix", body)).statusCode).toBe(400);
    }
    expect((await call("administrator", "GET", `/api/filter/admin/trainingsmatrix/${target.id}`)).json().id).toBeNull();
    expect((await call("administrator", "GET", "/api/filter/admin/trainingsmatrix/abc")).statusCode).toBe(400);
    expect((await call("administrator", "GET", "/api/filter/admin/trainingsmatrix/999999")).statusCode).toBe(404);
  });

  it("lets nobody set the matrix of a user holding a role they could not grant", async () => {
    const res = await call(
      "administrator",
      "POST",
      "/api/filter/admin/trainingsmatrix",
      matrixOf(cast.users.contentmanager.id, [{ topic: topicA(), trainings: 1 }]),
    );
    expect(res.statusCode).toBe(404);
  });
});

describe("additional qualifications (/external)", () => {
  const create = (who: Who, name: string, facility: number) => call(who, "POST", "/api/external", { name, facility });

  it.each([
    ["superchris", 200, 200],
    ["contentmanager", 200, 200],
    ["administrator", 200, 404],
    ["supervisor", 403, 403],
    ["employee", 403, 403],
    ["administratorB", 404, 200],
  ] as [Who, number, number][])("%s creates in A: %s, in B: %s", async (who, inA, inB) => {
    const resA = await create(who, `Praxisanleitung ${who}`, cast.facilityA.id);
    expect(resA.statusCode, resA.body).toBe(inA);
    const resB = await create(who, `Praxisanleitung ${who}`, cast.facilityB.id);
    expect(resB.statusCode, resB.body).toBe(inB);
    if (inA === 200) expect(resA.json()).toMatchObject({ name: `Praxisanleitung ${who}`, facility: cast.facilityA.id });
  });

  it("keeps names unique per facility ignoring case, and non-empty", async () => {
    expect((await create("administrator", "Wundexperte ICW", cast.facilityA.id)).statusCode).toBe(200);
    const dup = await create("administrator", "  WUNDEXPERTE icw ", cast.facilityA.id);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error_code).toBe(ErrorCode.conflict);
    expect((await create("administratorB", "Wundexperte ICW", cast.facilityB.id)).statusCode).toBe(200);
    expect((await create("administrator", "   ", cast.facilityA.id)).statusCode).toBe(400);
    expect((await call("administrator", "POST", "/api/external", { name: "x" })).statusCode).toBe(400);
  });

  it("lists per facility within scope", async () => {
    const a = (await call("supervisor", "GET", "/api/external")).json() as { facility: number }[];
    expect(a.length).toBeGreaterThan(0);
    expect(a.every((q) => q.facility === cast.facilityA.id)).toBe(true);
    expect((await call("supervisor", "GET", `/api/external?facility=${cast.facilityA.id}`)).json()).toEqual(a);
    const foreign = await call("supervisor", "GET", `/api/external?facility=${cast.facilityB.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error_code).toBe(ErrorCode.facilityNotFound);
    const all = (await call("contentmanager", "GET", "/api/external")).json() as { facility: number }[];
    expect(new Set(all.map((q) => q.facility))).toEqual(new Set([cast.facilityA.id, cast.facilityB.id]));
    expect((await call("employee", "GET", "/api/external")).statusCode).toBe(403);
  });

  it("assigns qualifications of the user's own facility only; staff in scope and the user read them", async () => {
    const target = await createUser(ctx, ["employee"], cast.facilityA.id);
    const qa = (await create("administrator", `Palliative Care ${target.id}`, cast.facilityA.id)).json();
    const qb = (await create("administratorB", `Palliative Care ${target.id}`, cast.facilityB.id)).json();
    const put = (who: Who, ids: number[]) => call(who, "PUT", `/api/external/user/${target.id}`, { externalIDs: ids });

    const refusedForeign = await put("administrator", [qa.id, qb.id]);
    expect(refusedForeign.statusCode).toBe(400);
    expect((await put("supervisor", [qa.id])).statusCode).toBe(403);
    expect((await put("administratorB", [qb.id])).statusCode).toBe(404);
    expect((await put("employee", [qa.id])).statusCode).toBe(403);
    const ok = await put("administrator", [qa.id, qa.id]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual([qa]);

    for (const [who, status] of [
      ["supervisor", 200],
      ["contentmanager", 200],
      ["administratorB", 404],
      ["employee", 403],
    ] as [Who, number][]) {
      expect((await call(who, "GET", `/api/external/user/${target.id}`)).statusCode, who).toBe(status);
    }
    const own = await call(await login(ctx, target.login), "GET", `/api/external/user/${target.id}`);
    expect(own.json()).toEqual([qa]);
    expect((await put("administrator", [])).json()).toEqual([]);
  });
});

it("every endpoint answers 401 without a token", async () => {
  for (const [method, url] of [
    ["GET", "/api/filter/list/topics"],
    ["GET", "/api/filter/admin/trainingsmatrix/1"],
    ["POST", "/api/filter/admin/trainingsmatrix"],
    ["GET", "/api/external"],
    ["POST", "/api/external"],
    ["GET", "/api/external/user/1"],
    ["PUT", "/api/external/user/1"],
  ] as const) {
    const res = await ctx.app.inject({ method, url, payload: method === "GET" ? undefined : {} });
    expect(res.statusCode, `${method} ${url}`).toBe(401);
  }
});
