import http from "node:http";
import type { AddressInfo } from "node:net";
import { ErrorCode, type ExternalCourse, type PartnerAdminCourses } from "@carecampus/contract";
import { type PartnerPeer, startPartnerPeer } from "@carecampus/partner-peer";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { certificates, partnerCertificates, topics, trainings } from "../db/schema";
import { createPartnerClient } from "./client";
import { isPublicAddress } from "./icons";

/** The peer's catalogue here: two courses for the fixture's training 'haende', one for another key. */
const COURSES = [
  {
    id: "hand-rub",
    training: "haende",
    name: "Händedesinfektion Schritt für Schritt: die sechs Schritte sicher beherrschen",
    colour: "#0f766e",
    pages: ["Eins", "Zwei", "Drei"],
  },
  { id: "gloves", training: "haende", name: "Handschuhe richtig tragen", colour: "#b45309", pages: ["A", "B"] },
  { id: "elsewhere", training: "other-key", name: "Anderswo", colour: "#6d28d9", pages: ["X"] },
];

let peer: PartnerPeer;
let peerNow = Date.now();
let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let topicId: number;
let trainingId: number;

const env = (extra: Record<string, string> = {}) => ({
  SHOW_EXTERNAL_TRAININGS: "true",
  EXTERNAL_COURSES_URL: peer.url,
  EXTERNAL_COURSES_CLIENT_ID: peer.clientId,
  EXTERNAL_COURSES_CLIENT_SECRET: peer.clientSecret,
  EXTERNAL_COURSES_TIMEOUT_MS: "300",
  EXTERNAL_COURSES_RETRIES: "2",
  EXTERNAL_COURSES_CERTIFY: "hand-rub=haende",
  ...extra,
});
const ref = (id: number) => `cc-${id}`;

async function get(url: string, token: string) {
  return ctx.app.inject({ method: "GET", url, headers: bearer(token) });
}
const courseUrl = (userId?: number) =>
  `/api/external-course/course?topicId=${topicId}&trainingId=${trainingId}${userId ? `&userId=${userId}` : ""}`;
const apiCalls = (prefix: string) => peer.calls.filter((c) => c.startsWith(prefix)).length;

/** An app on the peer with the users and the fixture's training 'haende'. */
async function appWithTraining(appEnv: Record<string, string>) {
  const app = await createTestApp({ env: appEnv });
  const appCast = await createCast(app);
  const db = app.deps.database.db;
  await importPackage(db, loadPackage(writeFixture()));
  const [t] = await db
    .select({ id: trainings.id, topicId: trainings.topicId })
    .from(trainings)
    .where(eq(trainings.key, "haende"));
  return { app, cast: appCast, topicId: t?.topicId ?? 0, trainingId: t?.id ?? 0 };
}

beforeAll(async () => {
  peer = await startPartnerPeer({
    courses: COURSES,
    clientSecret: "s3cret-of-the-partner",
    now: () => new Date(peerNow),
  });
  ({ app: ctx, cast, topicId, trainingId } = await appWithTraining(env()));
});

afterAll(async () => {
  await ctx?.close();
  await peer?.close();
});

beforeEach(() => {
  peer.fault.failNext = 0;
  peer.fault.hang = false;
  peer.fault.garbage = null;
  peer.fault.iconUrl = null;
  peer.fault.icon = null;
  peerNow = Date.now();
});

describe("external courses: the course list of a training", () => {
  it("lists the partner's courses of the training for the learner, with icons inline and no partner secret", async () => {
    const res = await get(courseUrl(), cast.tokens.employee);
    expect(res.statusCode).toBe(200);
    const list = res.json() as ExternalCourse[];
    expect(list.map((c) => c.external_id)).toEqual(["hand-rub", "gloves"]);
    expect(list[0]).toMatchObject({
      name: COURSES[0]?.name,
      url: `${peer.url}/launch/hand-rub`,
      count: 0,
      total: 0,
      counts_for_training: true,
      certificate: null,
    });
    expect(list[1]?.counts_for_training).toBe(false);
    expect(list[0]?.icon_url).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(res.body).not.toContain("s3cret-of-the-partner");
    expect(res.body).not.toContain("/v1/");
  });

  it("keeps the course list a short while: a second load asks the partner only for the progress", async () => {
    const courses = apiCalls("GET /v1/courses");
    const progress = apiCalls("GET /v1/progress");
    expect((await get(courseUrl(), cast.tokens.employee)).statusCode).toBe(200);
    expect(apiCalls("GET /v1/courses")).toBe(courses);
    expect(apiCalls("GET /v1/progress")).toBe(progress + 1);
  });

  it("answers 1005 for a training that does not exist or lies in another topic", async () => {
    const other = await get(`/api/external-course/course?topicId=${topicId}&trainingId=999999`, cast.tokens.employee);
    expect(other.statusCode).toBe(404);
    expect(other.json().error_code).toBe(ErrorCode.trainingNotFound);
    const wrongTopic = await get(
      `/api/external-course/course?topicId=${topicId + 1000}&trainingId=${trainingId}`,
      cast.tokens.employee,
    );
    expect(wrongTopic.json().error_code).toBe(ErrorCode.trainingNotFound);
    const bad = await get(`/api/external-course/course?topicId=x&trainingId=${trainingId}`, cast.tokens.employee);
    expect(bad.statusCode).toBe(400);
    expect((await ctx.app.inject({ method: "GET", url: courseUrl() })).statusCode).toBe(401);
  });

  it("shows the progress the partner reports", async () => {
    peer.setProgress(ref(cast.users.employee.id), "gloves", 1);
    const list = (await get(courseUrl(), cast.tokens.employee)).json() as ExternalCourse[];
    expect(list.find((c) => c.external_id === "gloves")).toMatchObject({ count: 1, total: 2, certificate: null });
  });
});

describe("external courses: the launch token", () => {
  it("issues a token bound to the learner that the partner accepts until it expires", async () => {
    const res = await get("/api/external-course/token", cast.tokens.employee);
    expect(res.statusCode).toBe(200);
    const { token, valid_until } = res.json() as { token: string; valid_until: string };
    const until = new Date(valid_until).getTime();
    expect(until).toBeGreaterThan(Date.now() + 60_000);
    expect(peer.tokenOf(token)?.userRef).toBe(ref(cast.users.employee.id));
    const launch = await fetch(`${peer.url}/launch/gloves?token=${token}`, { redirect: "manual" });
    expect(launch.status).toBe(303);
    peerNow = until + 1000;
    const late = await fetch(`${peer.url}/launch/gloves?token=${token}`, { redirect: "manual" });
    expect(late.status).toBe(401);
    // Every load asks for a new one: a second token, its own.
    const again = (await get("/api/external-course/token", cast.tokens.employee)).json() as { token: string };
    expect(again.token).not.toBe(token);
  });

  it("is the learners': staff without trainings are refused", async () => {
    const res = await get("/api/external-course/token", cast.tokens.administrator);
    expect(res.statusCode).toBe(403);
  });

  it("asks the partner once when it fails (a POST is not repeated)", async () => {
    const before = apiCalls("POST /v1/launch-tokens");
    peer.fault.failNext = 1;
    const res = await get("/api/external-course/token", cast.tokens.employee);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ error_code: ErrorCode.partnerUnavailable, status_code: 502 });
    expect(apiCalls("POST /v1/launch-tokens")).toBe(before + 1);
  });
});

describe("external courses: certificates from the partner", () => {
  it("imports a completed course's certificate and counts it as the training's certificate when so configured", async () => {
    const employee = cast.users.employee;
    await peer.complete(ref(employee.id), "Test User", "hand-rub");
    const list = (await get(courseUrl(), cast.tokens.employee)).json() as ExternalCourse[];
    const course = list.find((c) => c.external_id === "hand-rub");
    expect(course).toMatchObject({ count: 3, total: 3 });
    expect(course?.certificate?.filename).toBe("Bescheinigung-hand-rub.pdf");
    const certificateId = course?.certificate?.certificate_id;
    expect(certificateId).toBeTypeOf("number");

    // The training now has its certificate, and its download is the partner's PDF.
    const training = await get(
      `/api/progress/topics/${topicId}/trainings/${trainingId}/questionnaires`,
      cast.tokens.employee,
    );
    expect(training.json().training.certificate?.id).toBe(certificateId);
    const pdf = await get(`/api/progress/export/certificate?id=${certificateId}`, cast.tokens.employee);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toContain("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.headers["content-disposition"]).toContain("Bescheinigung-hand-rub.pdf");
    const partner = await get(
      `/api/progress/export/certificate?id=${course?.certificate?.id}&source=partner`,
      cast.tokens.employee,
    );
    expect(Buffer.compare(partner.rawPayload, pdf.rawPayload)).toBe(0);
    // In /profile's progress too.
    const progress = await get(`/api/progress/admin/users/${employee.id}`, cast.tokens.employee);
    expect(JSON.stringify(progress.json())).toContain(`"id":${certificateId}`);
  });

  it("imports once: a second load fetches no certificate again and writes nothing new", async () => {
    const before = apiCalls("GET /v1/certificates");
    await get(courseUrl(), cast.tokens.employee);
    await get(courseUrl(), cast.tokens.employee);
    expect(apiCalls("GET /v1/certificates")).toBe(before);
    const rows = await ctx.deps.database.db
      .select()
      .from(partnerCertificates)
      .where(eq(partnerCertificates.userId, cast.users.employee.id));
    expect(rows).toHaveLength(1);
  });

  it("keeps a course that does not count as the partner's certificate only; a renewal is kept as history", async () => {
    const employee = cast.users.employee;
    await peer.complete(ref(employee.id), "Test User", "gloves");
    await peer.complete(ref(employee.id), "Test User", "hand-rub");
    const list = (await get(courseUrl(), cast.tokens.employee)).json() as ExternalCourse[];
    const gloves = list.find((c) => c.external_id === "gloves");
    expect(gloves?.certificate?.certificate_id).toBeNull();
    const db = ctx.deps.database.db;
    const rows = await db.select().from(partnerCertificates).where(eq(partnerCertificates.userId, employee.id));
    expect(rows).toHaveLength(3);
    const issued = await db
      .select()
      .from(certificates)
      .where(and(eq(certificates.userId, employee.id), eq(certificates.trainingId, trainingId)));
    expect(issued).toHaveLength(2);
    // /profile lists every partner certificate, newest first.
    const progress = (await get(`/api/progress/admin/users/${employee.id}`, cast.tokens.employee)).json() as {
      partner_certificates: { id: number; course_name: string }[];
    };
    expect(progress.partner_certificates).toHaveLength(3);
    expect(progress.partner_certificates.map((p) => p.course_name)).toContain("Handschuhe richtig tragen");
    // Another learner's partner certificate is not theirs to download.
    const foreign = await get(
      `/api/progress/export/certificate?id=${gloves?.certificate?.id}&source=partner`,
      cast.tokens.employeeB,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error_code).toBe(ErrorCode.certificateNotFound);
  });
});

describe("external courses: who sees whose", () => {
  it("honours userId for staff in scope only", async () => {
    const id = cast.users.employee.id;
    const supervisor = await get(courseUrl(id), cast.tokens.supervisor);
    expect(supervisor.statusCode).toBe(200);
    expect(
      (supervisor.json() as ExternalCourse[]).find((c) => c.external_id === "hand-rub")?.certificate,
    ).not.toBeNull();
    const elsewhere = await get(courseUrl(id), cast.tokens.administratorB);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().error_code).toBe(ErrorCode.userNotFound);
    const learner = await get(courseUrl(id), cast.tokens.employeeB);
    expect(learner.statusCode).toBe(403);
    expect((await get(courseUrl(id), cast.tokens.employee)).statusCode).toBe(200);
    expect((await get(courseUrl(id), cast.tokens.contentmanager)).statusCode).toBe(200);
  });

  it("shows staff which of their users did which course, within their facility scope", async () => {
    peer.setProgress(ref(cast.users.employeeB.id), "gloves", 1);
    const url = `/api/external-course/admin/courses?topicId=${topicId}&trainingId=${trainingId}`;
    const own = (await get(url, cast.tokens.administrator)).json() as PartnerAdminCourses;
    expect(own.courses.map((c) => c.external_id)).toEqual(["hand-rub", "gloves"]);
    expect(own.users.map((u) => u.id)).toEqual([cast.users.employee.id]);
    expect(own.users[0]?.courses.find((c) => c.external_id === "hand-rub")?.completed_at).not.toBeNull();
    const all = (await get(url, cast.tokens.contentmanager)).json() as PartnerAdminCourses;
    expect(all.users.map((u) => u.id).sort()).toEqual([cast.users.employee.id, cast.users.employeeB.id].sort());
    const other = (await get(url, cast.tokens.administratorB)).json() as PartnerAdminCourses;
    expect(other.users.map((u) => u.id)).toEqual([cast.users.employeeB.id]);
    const learner = await get(url, cast.tokens.employee);
    expect(learner.statusCode).toBe(403);
    expect(learner.json().error_code).toBe(ErrorCode.notAllowedToSeeEmployees);
  });
});

describe("external courses: a partner that fails", () => {
  it("asks again after a passing failure, boundedly", async () => {
    const before = apiCalls("GET /v1/progress");
    peer.fault.failNext = 1;
    expect((await get(courseUrl(), cast.tokens.employee)).statusCode).toBe(200);
    expect(apiCalls("GET /v1/progress")).toBe(before + 2);
    peer.fault.failNext = 100;
    const down = await get(courseUrl(), cast.tokens.employee);
    expect(down.statusCode).toBe(502);
    expect(down.json()).toMatchObject({ error_code: ErrorCode.partnerUnavailable, status_code: 502 });
    // The first try and EXTERNAL_COURSES_RETRIES=2 more.
    expect(apiCalls("GET /v1/progress")).toBe(before + 2 + 3);
  });

  it("gives up on a slow partner after the timeout", async () => {
    peer.fault.hang = true;
    const res = await get(courseUrl(), cast.tokens.employee);
    expect(res.statusCode).toBe(502);
    expect(res.json().error_code).toBe(ErrorCode.partnerUnavailable);
  });

  it("refuses garbage without asking again", async () => {
    for (const garbage of ["html", "shape"] as const) {
      const before = apiCalls("GET /v1/progress");
      peer.fault.garbage = garbage;
      const res = await get(courseUrl(), cast.tokens.employee);
      expect(res.statusCode, garbage).toBe(502);
      expect(apiCalls("GET /v1/progress"), garbage).toBe(before + 1);
    }
  });

  it("writes nothing when a certificate comes as garbage", async () => {
    const db = ctx.deps.database.db;
    const learner = cast.users.employeeB;
    await peer.complete(ref(learner.id), "B", "hand-rub");
    peer.fault.garbage = "pdf";
    const res = await get(courseUrl(), cast.tokens.employeeB);
    expect(res.statusCode).toBe(502);
    expect(await db.select().from(partnerCertificates).where(eq(partnerCertificates.userId, learner.id))).toHaveLength(
      0,
    );
    expect(await db.select().from(certificates).where(eq(certificates.userId, learner.id))).toHaveLength(0);
    peer.fault.garbage = null;
    const ok = (await get(courseUrl(), cast.tokens.employeeB)).json() as ExternalCourse[];
    expect(ok.find((c) => c.external_id === "hand-rub")?.certificate).not.toBeNull();
  });
});

describe("external courses: off or unconfigured", () => {
  it("calls no partner and answers 404 while show-external-trainings is off", async () => {
    const off = await createTestApp({ env: env({ SHOW_EXTERNAL_TRAININGS: "false" }) });
    try {
      const offCast = await createCast(off);
      const before = peer.calls.length;
      const [t] = await off.deps.database.db.select({ id: topics.id }).from(topics).limit(1);
      for (const url of [
        `/api/external-course/course?topicId=${t?.id ?? 1}&trainingId=1`,
        "/api/external-course/admin/courses?topicId=1&trainingId=1",
        "/api/external-course/token",
      ]) {
        const res = await off.app.inject({ method: "GET", url, headers: bearer(offCast.tokens.superchris) });
        expect(res.statusCode, url).toBe(404);
        expect(res.json().error_code).toBe(ErrorCode.notFound);
      }
      expect(peer.calls.length).toBe(before);
    } finally {
      await off.close();
    }
  });

  it("is off with the setting on but no partner configured", async () => {
    const none = await createTestApp({ env: { SHOW_EXTERNAL_TRAININGS: "true" } });
    try {
      const noneCast = await createCast(none);
      const res = await none.app.inject({
        method: "GET",
        url: "/api/external-course/token",
        headers: bearer(noneCast.tokens.employee),
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await none.close();
    }
  });
});

describe("external courses: course icons from a hostile partner", () => {
  /** A server of the machine's own that no icon may reach: it counts every request. */
  let canary: http.Server;
  let canaryHits = 0;
  let canaryPort = 0;
  let icons: TestContext;
  let iconCast: Awaited<ReturnType<typeof createCast>>;
  let iconTopicId = 0;
  let iconTrainingId = 0;

  beforeAll(async () => {
    canary = http.createServer((_req, res) => {
      canaryHits += 1;
      res.writeHead(200, { "content-type": "image/svg+xml" });
      res.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    });
    await new Promise<void>((r) => canary.listen(0, "127.0.0.1", r));
    canaryPort = (canary.address() as AddressInfo).port;
    // No course list cache: every load fetches the icons again. localhost:<canary> is an allowed
    // origin, so only the address check keeps it out.
    ({
      app: icons,
      cast: iconCast,
      topicId: iconTopicId,
      trainingId: iconTrainingId,
    } = await appWithTraining(
      env({
        EXTERNAL_COURSES_CACHE_SECONDS: "0",
        EXTERNAL_COURSES_ICON_ORIGINS: `http://localhost:${canaryPort}`,
      }),
    ));
  });

  afterAll(async () => {
    await icons?.close();
    canary?.closeAllConnections();
    await new Promise((r) => canary?.close(r));
  });

  beforeEach(() => {
    canaryHits = 0;
  });

  /** The learner's course list: always 200, the courses all there, and their icons. */
  async function iconsOfLoad(): Promise<(string | null)[]> {
    const res = await icons.app.inject({
      method: "GET",
      url: `/api/external-course/course?topicId=${iconTopicId}&trainingId=${iconTrainingId}`,
      headers: bearer(iconCast.tokens.employee),
    });
    expect(res.statusCode).toBe(200);
    const list = res.json() as ExternalCourse[];
    expect(list.map((c) => c.external_id)).toEqual(["hand-rub", "gloves"]);
    return list.map((c) => c.icon_url);
  }

  it("fetches the icons of the partner's own origin", async () => {
    const own = await iconsOfLoad();
    for (const icon of own) expect(icon).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it("never asks an address outside the partner's origin, here a server of the machine itself", async () => {
    peer.fault.iconUrl = `http://127.0.0.1:${canaryPort}/latest/meta-data.svg`;
    expect(await iconsOfLoad()).toEqual([null, null]);
    expect(canaryHits).toBe(0);
  });

  it("never asks an allowed origin whose name resolves to a loopback, private or link-local address", async () => {
    peer.fault.iconUrl = `http://localhost:${canaryPort}/icon.svg`;
    expect(await iconsOfLoad()).toEqual([null, null]);
    expect(canaryHits).toBe(0);
  });

  it("follows no redirect of the partner's origin", async () => {
    const before = peer.calls.filter((c) => c.startsWith("GET /icons/")).length;
    peer.fault.icon = { redirect: `http://127.0.0.1:${canaryPort}/icon.svg` };
    expect(await iconsOfLoad()).toEqual([null, null]);
    expect(peer.calls.filter((c) => c.startsWith("GET /icons/")).length).toBe(before + 2);
    expect(canaryHits).toBe(0);
  });

  it("stops reading an icon beyond 64 KiB", async () => {
    peer.iconBytes.length = 0;
    peer.fault.icon = "huge";
    expect(await iconsOfLoad()).toEqual([null, null]);
    await expect.poll(() => peer.iconBytes.length).toBe(2);
    // The reader hung up on each: what the peer got written is the limit plus the sockets'
    // buffers (a few MiB), not an endless image kept in memory.
    for (const bytes of peer.iconBytes) expect(bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it("gives up on an icon that does not come within the timeout", async () => {
    peer.fault.icon = "slow";
    expect(await iconsOfLoad()).toEqual([null, null]);
  });

  it("asks no http address in production (NODE_ENV=production): icons over https only", async () => {
    const client = createPartnerClient({
      url: peer.url,
      clientId: peer.clientId,
      clientSecret: peer.clientSecret,
      timeoutMs: 2000,
      retries: 0,
      cacheSeconds: 0,
      certify: new Map(),
      iconOrigins: [],
      httpsOnly: true,
    });
    const before = peer.calls.filter((c) => c.startsWith("GET /icons/")).length;
    const courses = await client.listCourses("haende");
    expect(courses.map((c) => c.icon_url)).toEqual([null, null]);
    expect(peer.calls.filter((c) => c.startsWith("GET /icons/")).length).toBe(before);
  });

  it("counts loopback, private, link-local, metadata and reserved addresses as not public", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.100.100.200",
      "0.0.0.0",
      "255.255.255.255",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:a9fe:a9fe",
      "64:ff9b::a9fe:a9fe",
      "fd00:ec2::254",
      "fe80::1",
      "not an address",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ["93.184.215.14", "2606:4700::6810:84e5", "::ffff:5db8:d70e"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});
