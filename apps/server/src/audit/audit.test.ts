import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import {
  AUDIT_DATA_KEYS,
  AUDIT_PAGE_SIZE,
  type AuditKind,
  type AuditPage,
  type AuditVerification,
} from "@carecampus/contract";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { berlin, type CalendarScene, calendarScene, eventBody, tokenAt } from "../../test/calendar";
import { bearer, createTestApp, type Method, onPostgres, type TestContext } from "../../test/helpers";
import { loadConfig } from "../config";
import { auditLog, helpRequests, questionnaires, questions } from "../db/schema";
import { setGeneratedPassword } from "../users/service";
import { recordStartSettings } from "./settings";

/*
 * The audit trail (issue 28): every kind of audited change, driven through the API, writes
 * exactly one entry in the change's transaction; a refused change writes none; the chain's
 * check finds a changed or removed entry; administrators read their facility's entries only.
 */

const NOW = berlin(2027, 3, 1, 10);
const CLI = fileURLToPath(new URL("./verify-cli.ts", import.meta.url));
let ctx: TestContext;
let scene: CalendarScene;
/** PGlite: the last test closes the database for the command-line check (one process per data directory). */
let closed = false;

beforeAll(async () => {
  ctx = await createTestApp({ pgliteOnDisk: !onPostgres });
  scene = await calendarScene(ctx, NOW);
});
afterAll(async () => {
  if (!closed) await ctx?.close();
  else fs.rmSync(ctx.deps.config.dataDir, { recursive: true, force: true });
});

const entries = () => ctx.deps.database.db.select().from(auditLog).orderBy(asc(auditLog.id));
const lastId = async () => {
  const [row] = await ctx.deps.database.db.select({ n: sql<number>`coalesce(max(id), 0)::int` }).from(auditLog);
  return row?.n ?? 0;
};

/** Runs `change` and returns the entries it wrote. */
async function written(change: () => Promise<unknown>) {
  const before = await lastId();
  await change();
  return (await entries()).filter((e) => e.id > before);
}

/** The change wrote exactly one entry of each kind named, and nothing else. */
async function expectKinds(change: () => Promise<{ statusCode: number; body: string }>, kinds: AuditKind[]) {
  let status = 0;
  const rows = await written(async () => {
    const res = await change();
    status = res.statusCode;
    if (status !== 200) throw new Error(`${status} ${res.body}`);
  });
  expect(rows.map((r) => r.kind).sort()).toEqual([...kinds].sort());
  return rows;
}

/** One call of the API as the bearer of `token` (null: no session). */
function api(c: TestContext, token: string | null, method: Method, url: string, payload?: unknown) {
  return c.app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** The data of the first entry written. */
function dataOf<T>(rows: { data: Record<string, unknown> }[]): T {
  const [row] = rows;
  if (!row) throw new Error("no entry written");
  return row.data as T;
}

const as = (who: keyof CalendarScene["tokens"]) => scene.tokens[who];

describe("every audited change writes one entry in its transaction", () => {
  let created = 0;

  it("users: created, updated (personal values outside the hash), password set; never the password", async () => {
    const rows = await expectKinds(
      () =>
        api(ctx, as("administrator"), "POST", "/api/auth/admin/users", {
          name: "Anna",
          surname: "Berg",
          login: "anna.berg",
          email: "anna@example.org",
          password: "Geheim-123!",
          roles: ["employee"],
        }),
      ["user.created"],
    );
    const entry = rows[0] as (typeof rows)[number];
    created = entry.subjectId as number;
    expect(entry).toMatchObject({ facilityId: scene.facilityA.id, actorId: scene.users.administrator.id });
    expect(entry.actorRole).toBe("administrator");
    expect(entry.personal).toMatchObject({ subject: "Anna Berg", login: "anna.berg" });
    expect(JSON.stringify(entry.data)).not.toMatch(/Anna|anna|Geheim/);

    const edit = await expectKinds(
      () =>
        api(ctx, as("administrator"), "PATCH", `/api/auth/admin/users/${created}`, {
          surname: "Berg-Klein",
          roles: ["employee", "supervisor"],
        }),
      ["user.updated"],
    );
    const updated = edit[0] as (typeof edit)[number];
    expect(updated.data).toEqual({
      fields: ["surname", "roles"],
      before: { roles: ["employee"] },
      after: { roles: ["employee", "supervisor"] },
    });
    expect(updated.personal).toMatchObject({ before: { surname: "Berg" }, after: { surname: "Berg-Klein" } });

    const reset = await expectKinds(
      () => api(ctx, as("administrator"), "PATCH", `/api/auth/admin/users/${created}`, { password: "Anders-456!" }),
      ["user.password_reset"],
    );
    expect(JSON.stringify(reset)).not.toContain("Anders-456!");
  });

  it("a refused change writes nothing: a taken login, another facility's user, an unknown training", async () => {
    const rows = await written(async () => {
      const taken = await api(ctx, as("administrator"), "PATCH", `/api/auth/admin/users/${created}`, {
        surname: "Neu",
        login: scene.users.supervisor.login,
      });
      expect(taken.statusCode).toBe(409);
      const foreign = await api(ctx, as("administratorB"), "PATCH", `/api/auth/admin/users/${created}`, {
        surname: "Neu",
      });
      expect(foreign.statusCode).toBe(404);
      // The matrix is written in the user's transaction: an unknown training undoes the whole edit.
      const matrix = await api(ctx, as("administrator"), "PATCH", `/api/auth/admin/users/${created}`, {
        surname: "Neu",
        trainings: [999_999],
      });
      expect(matrix.statusCode).toBe(404);
    });
    expect(rows).toEqual([]);
  });

  it("the command-line reset records the system as the actor", async () => {
    const rows = await written(() => setGeneratedPassword(ctx.deps.database.db, created, true));
    expect(rows.map((r) => [r.kind, r.actorId, r.actorRole, r.subjectId])).toEqual([
      ["user.password_reset", null, "system", created],
    ]);
    // A first password (the first superuser's) is no reset.
    expect(await written(() => setGeneratedPassword(ctx.deps.database.db, created))).toEqual([]);
  });

  it("qualifications, facilities and the training matrix", async () => {
    await expectKinds(
      () =>
        api(ctx, as("administrator"), "POST", "/api/external", {
          name: "Praxisanleitung",
          facility: scene.facilityA.id,
        }),
      ["qualification.created"],
    );
    const facility = await expectKinds(
      () => api(ctx, as("superchris"), "POST", "/api/auth/admin/facilities", { name: "Haus Audit" }),
      ["facility.created"],
    );
    expect(facility[0]?.data).toMatchObject({ name: "Haus Audit" });
    const matrix = await expectKinds(
      () =>
        api(ctx, as("administrator"), "POST", "/api/filter/admin/trainingsmatrix", {
          user_id: scene.users.employee.id,
          topics: [{ topic_id: scene.passive.topicId, trainings: [{ training_id: scene.passive.id }] }],
        }),
      ["matrix.changed"],
    );
    expect(matrix[0]).toMatchObject({
      subjectId: scene.users.employee.id,
      facilityId: scene.facilityA.id,
      data: { before: null, after: [scene.passive.id] },
    });
    // The same matrix again changes nothing and records nothing.
    await expectKinds(
      () =>
        api(ctx, as("administrator"), "POST", "/api/filter/admin/trainingsmatrix", {
          user_id: scene.users.employee.id,
          topics: [{ topic_id: scene.passive.topicId, trainings: [{ training_id: scene.passive.id }] }],
        }),
      [],
    );
  });

  it("a passive training marked passed issues a certificate: two entries, one of each kind", async () => {
    const rows = await expectKinds(
      () =>
        api(ctx, as("supervisor"), "POST", `/api/progress/admin/users/${scene.users.employee.id}/passivetraining`, {
          topicID: scene.passive.topicId,
          trainingID: scene.passive.id,
        }),
      ["training.marked_passed", "certificate.issued"],
    );
    expect(rows.every((r) => r.subjectId === scene.users.employee.id && r.facilityId === scene.facilityA.id)).toBe(
      true,
    );
    // The double click gives the same certificate back: nothing new happened.
    await expectKinds(
      () =>
        api(ctx, as("supervisor"), "POST", `/api/progress/admin/users/${scene.users.employee.id}/passivetraining`, {
          topicID: scene.passive.topicId,
          trainingID: scene.passive.id,
        }),
      [],
    );
  });

  it("calendar events: created, updated, attendance with its certificates, deleted", async () => {
    const body = eventBody(scene.facilityA.id, scene.passive, {
      Start: "2027-03-01T09:00:00+01:00",
      End: "2027-03-01T09:30:00+01:00",
      Invitees: [scene.users.employee.id, created],
    });
    const made = await expectKinds(
      () => api(ctx, as("administrator"), "POST", "/api/calendar/events", body),
      ["calendar.event_created"],
    );
    const id = dataOf<{ event: number }>(made).event;
    const changed = await expectKinds(
      () =>
        api(ctx, as("administrator"), "PUT", "/api/calendar/events", {
          ...body,
          ID: id,
          Location: "Raum 2",
        }),
      ["calendar.event_updated"],
    );
    expect(changed[0]?.data).toEqual({ event: id, before: { location: null }, after: { location: "Raum 2" } });
    const token = await tokenAt(ctx, scene.users.administrator, NOW);
    const attended = await expectKinds(
      () => api(ctx, token, "PUT", `/api/calendar/events/${id}/attendance`, { attended: [created] }),
      ["calendar.attendance_recorded", "certificate.issued"],
    );
    expect(attended.find((r) => r.kind === "certificate.issued")).toMatchObject({
      subjectId: created,
      data: { via: "attendance", training: scene.passive.id },
    });
    await expectKinds(() => api(ctx, token, "DELETE", `/api/calendar/events/${id}`), ["calendar.event_deleted"]);
    // Another facility's event is not found: nothing recorded.
    const refused = await written(async () => {
      const res = await api(ctx, as("administratorB"), "PUT", "/api/calendar/events", { ...body, ID: id });
      expect(res.statusCode).toBe(404);
    });
    expect(refused).toEqual([]);
  });

  it("help requests: replied and handled", async () => {
    const { db } = ctx.deps.database;
    const [qn] = await db.select().from(questionnaires).where(eq(questionnaires.trainingId, scene.active.id));
    const [q1, q2] = await db
      .select()
      .from(questions)
      .where(eq(questions.questionnaireId, qn?.id ?? 0))
      .orderBy(asc(questions.id));
    const ask = (questionId: number) =>
      db.insert(helpRequests).values({ userId: scene.users.employee.id, questionId, facilityId: scene.facilityA.id });
    await ask(q1?.id ?? 0);
    await ask(q2?.id ?? 0);
    const token = await tokenAt(ctx, scene.users.supervisor, NOW);
    const replied = await expectKinds(
      () => api(ctx, token, "POST", `/api/help/${q1?.id}/reply`, { text: "Siehe Handbuch" }),
      ["help.replied"],
    );
    expect(replied[0]).toMatchObject({ facilityId: scene.facilityA.id, data: { question: q1?.id, learners: 1 } });
    expect(JSON.stringify(replied[0]?.data)).not.toContain("Handbuch");
    await expectKinds(() => api(ctx, token, "DELETE", `/api/help/${q2?.id}`), ["help.handled"]);
  });

  it("content: the import by the system, authoring saves by staff", async () => {
    const imports = (await entries()).filter((e) => e.kind === "content.imported");
    expect(imports).toHaveLength(1);
    expect(imports[0]).toMatchObject({ actorId: null, actorRole: "system", data: { trainings: 2 } });

    const token = await tokenAt(ctx, scene.users.contentmanager, NOW);
    const topic = await expectKinds(
      () => api(ctx, token, "POST", "/api/authoring/topics", { name: "Brandschutz", icon: "fire", color: "#b91c1c" }),
      ["content.created"],
    );
    const topicId = dataOf<{ id: number }>(topic).id;
    const renamed = await expectKinds(
      () =>
        api(ctx, token, "PUT", `/api/authoring/topics/${topicId}`, {
          name: "Brandschutz 2027",
          icon: "fire",
          color: "#b91c1c",
        }),
      ["content.updated"],
    );
    expect(renamed[0]?.data).toEqual({
      item: "topic",
      id: topicId,
      before: { name: "Brandschutz" },
      after: { name: "Brandschutz 2027" },
    });
    const admin = await tokenAt(ctx, scene.users.administrator, NOW);
    const draft = await expectKinds(
      () =>
        api(ctx, admin, "POST", "/api/authoring/questionnaires", {
          training_id: scene.active.id,
          name: "Eigene Fragen",
        }),
      ["content.created"],
    );
    expect(draft[0]).toMatchObject({ facilityId: scene.facilityA.id, data: { item: "questionnaire" } });
    const qnId = dataOf<{ id: number }>(draft).id;
    const question = {
      type: "single",
      text: "Wie lange desinfizieren?",
      explanation: "<p>30 Sekunden.</p>",
      hint: null,
      media: null,
      answers: [
        { text: "30 Sekunden", correct: true },
        { text: "5 Sekunden", correct: false },
      ],
    };
    const added = await expectKinds(
      () => api(ctx, admin, "POST", `/api/authoring/questionnaires/${qnId}/questions`, question),
      ["content.created"],
    );
    const [questionId] = dataOf<{ ids: number[] }>(added).ids;
    await expectKinds(
      () => api(ctx, admin, "PUT", `/api/authoring/questions/${questionId}`, { ...question, text: "Wie lange?" }),
      ["content.updated"],
    );
    await expectKinds(() => api(ctx, admin, "DELETE", `/api/authoring/questions/${questionId}`), ["content.deleted"]);
  });

  it("wiki pages: topic created, saved, released and retired", async () => {
    const token = await tokenAt(ctx, scene.users.administrator, NOW);
    const topic = await expectKinds(
      () =>
        api(ctx, token, "POST", "/api/wiki/topics", {
          key: "hausregeln",
          title: "Hausregeln",
          facility: scene.facilityA.id,
        }),
      ["wiki.topic_created"],
    );
    expect(topic[0]).toMatchObject({ facilityId: scene.facilityA.id, data: { topic: "hausregeln" } });
    const saved = await expectKinds(
      () =>
        api(ctx, token, "POST", "/api/wiki/pages", {
          topic: "hausregeln",
          slug: "besuch",
          facility: scene.facilityA.id,
          title: "Besuchszeiten",
          markdown: "# Besuch\n\nTäglich.",
        }),
      ["wiki.page_saved"],
    );
    const page = dataOf<{ page: number }>(saved).page;
    await expectKinds(
      () =>
        api(ctx, token, "PUT", `/api/wiki/pages/${page}`, {
          version: 1,
          title: "Besuch",
          markdown: "# Besuch\n\nAb 9 Uhr.",
        }),
      ["wiki.page_saved"],
    );
    const released = await expectKinds(
      () => api(ctx, token, "POST", `/api/wiki/pages/${page}/release`, { version: 2 }),
      ["wiki.page_released"],
    );
    expect(released[0]).toMatchObject({
      facilityId: scene.facilityA.id,
      data: { page, before: { revision: null }, after: { revision: 2 } },
    });
    // A stale version is refused (409) and records nothing.
    const stale = await written(async () => {
      const res = await api(ctx, token, "POST", `/api/wiki/pages/${page}/release`, { version: 2 });
      expect(res.statusCode).toBe(409);
    });
    expect(stale).toEqual([]);
    const retired = await expectKinds(
      () => api(ctx, token, "DELETE", `/api/wiki/pages/${page}`),
      ["wiki.page_retired"],
    );
    expect(retired[0]).toMatchObject({ facilityId: scene.facilityA.id, data: { page, slug: "besuch" } });
  });

  it("the settings of a start: once per change, never a secret", async () => {
    const { db } = ctx.deps.database;
    const env = { DATA_DIR: ctx.deps.config.dataDir, JWT_SECRET: "s".repeat(40), ADMIN_PASSWORD: "Sehr-geheim-1!" };
    const first = await written(() => recordStartSettings(db, loadConfig(env), ctx.deps.now()));
    expect(first.map((e) => e.kind)).toEqual(["settings.started"]);
    expect(JSON.stringify(first[0]?.data)).not.toMatch(/sssss|Sehr-geheim/);
    // A second server with the same settings adds nothing; a changed limit is recorded.
    expect(await written(() => recordStartSettings(db, loadConfig(env), ctx.deps.now()))).toEqual([]);
    const changed = await written(() =>
      recordStartSettings(db, loadConfig({ ...env, MAX_USERS: "40" }), ctx.deps.now()),
    );
    expect(changed[0]?.data).toMatchObject({ max_users: 40 });
  });

  it("every key the entries above hold is one the audit page names in words (AUDIT_DATA_KEYS)", async () => {
    const keys = new Set<string>();
    const isRecord = (v: unknown): v is Record<string, unknown> =>
      typeof v === "object" && v !== null && !Array.isArray(v);
    const pairs = (part: Record<string, unknown>) => {
      for (const side of [part.before, part.after]) if (isRecord(side)) for (const k of Object.keys(side)) keys.add(k);
    };
    const rows = await entries();
    for (const row of rows) {
      for (const key of Object.keys(row.data)) keys.add(key);
      pairs(row.data);
      if (Array.isArray(row.data.fields)) for (const f of row.data.fields) keys.add(String(f));
      if (isRecord(row.personal)) pairs(row.personal);
    }
    // The entries above are of many kinds, with before and after, fields and personal values.
    expect(new Set(rows.map((r) => r.kind)).size).toBeGreaterThan(20);
    const named = new Set<string>(AUDIT_DATA_KEYS);
    expect([...keys].filter((k) => k !== "before" && k !== "after" && !named.has(k)).sort()).toEqual([]);
  });
});

describe("GET /audit", () => {
  const list = async (token: string, query = "") => {
    const res = await api(ctx, token, "GET", `/api/audit${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AuditPage;
  };

  it("gives superusers everything and administrators only their facility's entries, newest first", async () => {
    const all = await list(as("superchris"));
    expect(all.total).toBe((await entries()).length);
    expect(all.page_size).toBe(AUDIT_PAGE_SIZE);
    const ids = all.entries.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const mine = await list(as("administrator"));
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.entries.every((e) => e.facility?.id === scene.facilityA.id)).toBe(true);
    expect(mine.entries[0]?.facility?.name).toBe(scene.facilityA.name);
    const other = await list(as("administratorB"));
    expect(other.entries.every((e) => e.facility?.id === scene.facilityB.id)).toBe(true);
    expect(other.total).toBe(0);
  });

  it("names people from the unhashed part and filters by person, kind and days", async () => {
    const byKind = await list(as("superchris"), "?kind=user.updated");
    expect(byKind.entries.map((e) => e.kind)).toEqual(["user.updated"]);
    const entry = byKind.entries[0];
    expect(entry?.subject?.name).toBe("Anna Berg-Klein");
    expect(entry?.actor).toMatchObject({ id: scene.users.administrator.id, role: "administrator" });
    expect(entry?.data.personal).toEqual({ before: { surname: "Berg" }, after: { surname: "Berg-Klein" } });
    const person = await list(as("superchris"), `?user=${scene.users.supervisor.id}`);
    expect(person.total).toBeGreaterThan(0);
    expect(
      person.entries.every(
        (e) => e.actor.id === scene.users.supervisor.id || e.subject?.id === scene.users.supervisor.id,
      ),
    ).toBe(true);
    // The entries were written at the clock's day (1 March 2027, Berlin) and today's wall clock (the import).
    const day = await list(as("superchris"), "?kind=training.marked_passed&from=2027-03-01&to=2027-03-01");
    expect(day.total).toBe(1);
    const before = await list(as("superchris"), "?kind=training.marked_passed&to=2027-02-28");
    expect(before.total).toBe(0);
  });

  it("pages through the trail", async () => {
    const { db } = ctx.deps.database;
    const total = (await entries()).length;
    // Enough entries for a second page: more facilities (each one entry).
    for (let i = total; i <= AUDIT_PAGE_SIZE; i++) {
      const res = await api(ctx, as("superchris"), "POST", "/api/auth/admin/facilities", { name: `Haus ${i}` });
      expect(res.statusCode).toBe(200);
    }
    const count = (await db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]?.n ?? 0;
    const first = await list(as("superchris"));
    const second = await list(as("superchris"), "?page=2");
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(second.entries).toHaveLength(count - AUDIT_PAGE_SIZE);
    expect(second.page).toBe(2);
    expect(Math.min(...first.entries.map((e) => e.id))).toBeGreaterThan(Math.max(...second.entries.map((e) => e.id)));
  });

  it("gives the CSV with the filter: BOM, semicolons, the reader's language, formulas defused", async () => {
    // A facility whose name a spreadsheet would run as a formula.
    await api(ctx, as("superchris"), "POST", "/api/auth/admin/facilities", { name: "=HYPERLINK(1)" });
    const res = await api(ctx, null, "GET", `/api/audit?format=csv&kind=facility.created&token=${as("superchris")}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toContain("attachment");
    const text = res.rawPayload.toString("utf8");
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trim().split("\r\n");
    expect(lines[0]?.split(";")).toHaveLength(11);
    expect(lines.length - 1).toBe((await list(as("superchris"), "?kind=facility.created")).total);
    expect(text).toContain('"{""');
    expect(text).not.toMatch(/;=HYPERLINK/);
    // The JSON page takes no token in the query; the CSV refuses staff without the right.
    expect((await api(ctx, null, "GET", `/api/audit?token=${as("superchris")}`)).statusCode).toBe(401);
    const supervisor = await api(ctx, null, "GET", `/api/audit?format=csv&token=${as("supervisor")}`);
    expect(supervisor.statusCode).toBe(403);
  });

  it("refuses supervisors, employees and Super-Admins (403), a bad filter (400), no session (401)", async () => {
    for (const who of ["supervisor", "employee", "contentmanager"] as const) {
      const res = await api(ctx, as(who), "GET", "/api/audit");
      expect(res.statusCode, who).toBe(403);
      expect(res.json()).toMatchObject({ error_code: expect.any(Number) });
    }
    for (const query of [
      "?kind=user.deleted",
      "?from=2027-13-01",
      "?from=2027-02-30",
      "?page=0",
      "?user=abc",
      "?x=1",
    ]) {
      const res = await api(ctx, as("superchris"), "GET", `/api/audit${query}`);
      expect(res.statusCode, query).toBe(400);
    }
    expect((await api(ctx, as("superchris"), "GET", "/api/audit?from=2027-03-02&to=2027-03-01")).statusCode).toBe(400);
    expect((await api(ctx, null, "GET", "/api/audit")).statusCode).toBe(401);
  });
});

describe("verifying the chain", () => {
  const verify = async (token: string) => {
    const res = await api(ctx, token, "GET", "/api/audit/verify");
    return { status: res.statusCode, body: res.json() as AuditVerification };
  };

  /** Tampering as the database's owner could: past the append-only trigger. */
  async function tamper(statement: ReturnType<typeof sql>) {
    await ctx.deps.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table "audit_log" disable trigger "audit_log_append_only"`);
      await tx.execute(statement);
      await tx.execute(sql`alter table "audit_log" enable trigger "audit_log_append_only"`);
    });
  }

  /** npm run audit:verify against this test's database (PGlite: its data directory, closed first). */
  function runCli(env: Record<string, string>) {
    return spawnSync(process.execPath, ["--import", "tsx", CLI], {
      env: { ...process.env, ...env },
      encoding: "utf8",
    });
  }

  async function cliEnv(): Promise<Record<string, string>> {
    if (!onPostgres) return { DATA_DIR: ctx.deps.config.dataDir, DATABASE_URL: "" };
    const { rows } = await ctx.deps.database.db.execute<{ name: string }>(sql`select current_database() as name`);
    const url = new URL(process.env.DATABASE_URL as string);
    url.pathname = `/${rows[0]?.name}`;
    return { DATABASE_URL: url.toString() };
  }

  it("is for superusers only", async () => {
    expect((await verify(as("administrator"))).status).toBe(403);
    expect((await verify(as("contentmanager"))).status).toBe(403);
    const ok = await verify(as("superchris"));
    expect(ok.body).toEqual({ intact: true, entries: (await entries()).length, first_broken: null });
  });

  it("finds a changed entry in the middle, and a removed one, by the endpoint and by npm run audit:verify", async () => {
    const all = await entries();
    const middle = all[Math.floor(all.length / 2)] as (typeof all)[number];
    const next = all[Math.floor(all.length / 2) + 1] as (typeof all)[number];
    await tamper(sql`update "audit_log" set "data" = jsonb_set("data", '{forged}', 'true') where "id" = ${middle.id}`);
    expect((await verify(as("superchris"))).body).toEqual({
      intact: false,
      entries: all.length,
      first_broken: middle.id,
    });
    // Put back as it was: intact again. Then one removed: its successor no longer links.
    await tamper(sql`update "audit_log" set "data" = "data" - 'forged' where "id" = ${middle.id}`);
    expect((await verify(as("superchris"))).body.intact).toBe(true);
    await tamper(sql`delete from "audit_log" where "id" = ${middle.id}`);
    expect((await verify(as("superchris"))).body).toEqual({
      intact: false,
      entries: all.length - 1,
      first_broken: next.id,
    });
    const env = await cliEnv();
    if (!onPostgres) {
      closed = true;
      await ctx.app.close();
      await ctx.deps.database.close();
    }
    const broken = runCli(env);
    expect(broken.status, broken.stderr).toBe(1);
    expect(broken.stderr).toContain(`entry ${next.id}`);
  });
});

describe("npm run audit:verify on an intact trail", () => {
  it("says so and exits 0", async () => {
    const local = await createTestApp({ pgliteOnDisk: !onPostgres });
    try {
      await local.deps.database.db.transaction(async (tx) => {
        const { recordAudit } = await import("./record");
        await recordAudit(
          tx,
          { kind: "facility.created", actor: null, facilityId: 1, data: { facility: 1 } },
          new Date(),
        );
      });
      let env: Record<string, string>;
      if (onPostgres) {
        const { rows } = await local.deps.database.db.execute<{ name: string }>(sql`select current_database() as name`);
        const url = new URL(process.env.DATABASE_URL as string);
        url.pathname = `/${rows[0]?.name}`;
        env = { DATABASE_URL: url.toString() };
      } else {
        await local.app.close();
        await local.deps.database.close();
        env = { DATA_DIR: local.deps.config.dataDir, DATABASE_URL: "" };
      }
      const run = spawnSync(process.execPath, ["--import", "tsx", CLI], {
        env: { ...process.env, ...env },
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain("intact: 1 entries");
    } finally {
      if (onPostgres) await local.close();
      else fs.rmSync(local.deps.config.dataDir, { recursive: true, force: true });
    }
  });
});
