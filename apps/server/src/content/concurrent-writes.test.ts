import { ErrorCode } from "@carecampus/contract";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FixtureIds, importFixture, writeFixture } from "../../test/content-fixture";
import {
  bearer,
  callAs,
  createCast,
  createTestApp,
  freshPng,
  type Method,
  onPostgres,
  type TestContext,
} from "../../test/helpers";
import { otherSession, secondServerDatabase } from "../../test/second-server";
import { media, questions } from "../db/schema";
import { TransientDatabaseError } from "../errors";
import { loadPackage } from "./package";
import { currentContentVersion, importPackage } from "./service";

/*
 * Content written in the app while a content import runs (issue 26): with the generation row of
 * migration 0015 every save waited for the whole import, and two content transactions could
 * deadlock on it and answer 500. PostgreSQL only: PGlite runs one transaction at a time, so
 * there no two writers ever meet.
 */

/**
 * The fixture's version 2 and 30 trainings more of 40 questions each: an import that takes a
 * while. Half of them are imported before the fixture's training (files in name order), half
 * after it: the saves meet the import both before it reaches that training's rows and while it
 * holds them.
 */
function largePackage(): string {
  const files: Record<string, string> = {};
  for (let t = 1; t <= 30; t++) {
    const questionsYaml = Array.from(
      { length: 40 },
      (_, i) => `      - key: q${i + 1}
        type: single
        text: "Frage ${t}.${i + 1}"
        answers:
          - text: Ja
            correct: true
          - text: Nein
        explanation: <p>Ja.</p>
`,
    ).join("");
    const key = `${t <= 15 ? "a" : "z"}-gross-${t}`;
    files[`trainings/${key}.yaml`] =
      `key: ${key}\ntopic: hygiene\nname: Großer Kurs ${t}\nicon: haende\nvalidity_months: 12\npoints: 1\n` +
      `questionnaires:\n  - key: "1"\n    name: "1"\n    questions:\n${questionsYaml}`;
  }
  return writeFixture({ version: "2.0.0", v2: true, files });
}

const question = (text: string) => ({
  type: "single",
  text,
  answers: [
    { text: "Ja", correct: true },
    { text: "Nein", correct: false },
  ],
  explanation: "<p>Ja.</p>",
  hint: null,
  media: null,
});

describe.skipIf(!onPostgres)("content writes while a content import runs (PostgreSQL)", () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let ids: FixtureIds;
  let facilityQn = 0;
  let wikiPage = { id: 0, version: 0 };
  const logLines: string[] = [];

  const call = (token: string, method: Method, url: string, payload?: unknown) =>
    callAs(ctx, token, method, url, payload);

  beforeAll(async () => {
    ctx = await createTestApp({ logStream: { write: (line) => void logLines.push(line) } });
    cast = await createCast(ctx);
    ids = await importFixture(ctx.deps.database.db);
    const qn = await call(cast.tokens.administrator, "POST", "/authoring/questionnaires", {
      training_id: ids.training,
      name: "Unser Alarmplan",
    });
    expect(qn.statusCode, qn.body).toBe(200);
    facilityQn = qn.json().id;
    const topic = await call(cast.tokens.administrator, "POST", "/wiki/topics", {
      key: "unser-haus",
      title: "Unser Haus",
      facility: cast.facilityA.id,
    });
    expect(topic.statusCode, topic.body).toBe(200);
    const page = await call(cast.tokens.administrator, "POST", "/wiki/pages", {
      topic: "unser-haus",
      slug: "alarmplan",
      facility: cast.facilityA.id,
      title: "Alarmplan",
      markdown: "Sammelplatz: Parkplatz.",
      requires_confirmation: false,
    });
    expect(page.statusCode, page.body).toBe(200);
    wikiPage = { id: page.json().id, version: page.json().version };
  });
  afterAll(() => ctx.close());

  it("applies every authoring save and wiki write, or answers it with the spec §8 error: never 500", async () => {
    const { db } = ctx.deps.database;
    const pkg = loadPackage(largePackage());
    // The import runs as the CLI or another server would: its own connections to the database.
    const second = await secondServerDatabase(ctx);
    let importing = true;
    const imported = importPackage(second.database.db, pkg)
      .then(
        (result) => ({ result, error: null }),
        (error: unknown) => ({ result: null, error }),
      )
      .finally(() => {
        importing = false;
      });
    // The saves start once the import has written learning content (it holds the questions
    // table's write lock), so that they meet its row locks.
    await vi.waitFor(
      async () => {
        const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_locks l
          join pg_class c on c.oid = l.relation where c.relname = 'questions' and l.mode = 'RowExclusiveLock'`);
        expect(rows[0]?.n).toBeGreaterThan(0);
      },
      { timeout: 30_000, interval: 20 },
    );
    expect(importing).toBe(true);

    interface Answer {
      what: string;
      res: LightMyRequestResponse;
      duringImport: boolean;
      text?: string;
    }
    const answers: Answer[] = [];
    /** Runs `save` again and again, a moment apart, while the import runs (at least once). */
    const writer = async (
      what: string,
      save: (n: number) => Promise<{ res: LightMyRequestResponse; text?: string }>,
    ) => {
      for (let n = 0; n === 0 || (importing && n < 200); n++) {
        const { res, text } = await save(n);
        answers.push({ what, res, duringImport: importing, ...(text === undefined ? {} : { text }) });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    let lastFacilityQuestion = 0;
    const liveQuestions = (questionnaireId: number) =>
      db
        .select({ id: questions.id })
        .from(questions)
        .where(
          and(
            eq(questions.questionnaireId, questionnaireId),
            eq(questions.retired, false),
            isNull(questions.supersededAt),
          ),
        )
        .orderBy(questions.position, questions.id);

    await Promise.all([
      writer("facility question", async (n) => {
        // New questions up to 40 (a questionnaire holds 50), then the last one edited again and again.
        const text = `Frage ${n}`;
        const res =
          n < 40
            ? await call(
                cast.tokens.administrator,
                "POST",
                `/authoring/questionnaires/${facilityQn}/questions`,
                question(text),
              )
            : await call(
                cast.tokens.administrator,
                "PUT",
                `/authoring/questions/${lastFacilityQuestion}`,
                question(text),
              );
        if (res.statusCode === 200) lastFacilityQuestion = res.json().question_id;
        return { res, text };
      }),
      writer("package question edited", async (n) => {
        const [q] = await liveQuestions(ids.qn1);
        return {
          res: await call(cast.tokens.contentmanager, "PUT", `/authoring/questions/${q?.id ?? 0}`, {
            ...question(`Geänderte Frage ${n}`),
          }),
        };
      }),
      writer("package questions reordered", async () => {
        const order = (await liveQuestions(ids.qn1)).map((q) => q.id).reverse();
        return {
          res: await call(cast.tokens.contentmanager, "PATCH", `/authoring/questionnaires/${ids.qn1}`, {
            question_order: order,
          }),
        };
      }),
      writer("common questionnaire", async (n) => ({
        res: await call(cast.tokens.contentmanager, "POST", "/authoring/questionnaires", {
          training_id: ids.training,
          name: `Gemeinsam ${n}`,
        }),
      })),
      writer("wiki image", async () => ({
        res: await ctx.app.inject({
          method: "POST",
          url: "/api/wiki/images",
          headers: { ...bearer(cast.tokens.administrator), "content-type": "image/png" },
          payload: freshPng(),
        }),
      })),
      writer("wiki page", async (n) => {
        const res = await call(cast.tokens.administrator, "PUT", `/wiki/pages/${wikiPage.id}`, {
          version: wikiPage.version,
          lang: "de",
          title: "Alarmplan",
          markdown: `Sammelplatz: Parkplatz. Stand ${n}.`,
        });
        if (res.statusCode === 200) wikiPage.version = res.json().version;
        return { res };
      }),
    ]);
    const outcome = await imported;
    await second.close();

    for (const { what, res } of answers) {
      expect(res.statusCode, `${what}: ${res.body}`).not.toBe(500);
      if (res.statusCode === 200) continue;
      // A refusal: the spec §8 body, 409/503 with their codes.
      expect([400, 409, 503], `${what}: ${res.body}`).toContain(res.statusCode);
      expect(res.json(), what).toEqual({
        error_code: expect.any(Number),
        message: expect.any(String),
        status_code: res.statusCode,
      });
      if (res.statusCode === 503) expect(res.json().error_code, what).toBe(ErrorCode.busy);
    }
    // Nothing was logged as unexpected (no 500, no deadlock that escaped).
    expect(logLines.filter((line) => line.includes("unexpected error"))).toEqual([]);

    // The import either applied as a whole or, lost twice to a deadlock, left nothing behind.
    if (outcome.error) {
      expect(outcome.error).toBeInstanceOf(TransientDatabaseError);
      expect(await currentContentVersion(db)).toBe("1.0.0");
    } else {
      expect(outcome.result?.status).toBe("imported");
      expect(await currentContentVersion(db)).toBe("2.0.0");
    }

    // What was answered 200 is there: each facility question with the text of its last save.
    const lastText = new Map<number, string | undefined>();
    for (const { what, res, text } of answers) {
      if (res.statusCode !== 200) continue;
      if (what === "facility question") lastText.set(res.json().question_id, text);
      if (what === "wiki image") {
        const [row] = await db.select({ kind: media.kind }).from(media).where(eq(media.id, res.json().id));
        expect(row?.kind).toBe("wiki");
      }
    }
    expect(lastText.size).toBeGreaterThan(0);
    for (const [id, text] of lastText) {
      const [row] = await db.select({ text: questions.text }).from(questions).where(eq(questions.id, id));
      expect(row?.text).toBe(text);
    }
    // The saves really ran beside the import, not only after it (else this test proved nothing).
    // That no open content transaction makes them wait is db/content-generation.test.ts's.
    for (const what of ["facility question", "wiki image"]) {
      const during = answers.filter((a) => a.what === what && a.duringImport && a.res.statusCode === 200);
      expect(during.length, what).toBeGreaterThan(0);
    }
  }, 180_000);

  it("answers a save the database cancels twice with 503 (1108), after one more try", async () => {
    const other = await otherSession(ctx);
    try {
      // The training's row, held by another transaction: a new questionnaire of it waits.
      await other.query("begin");
      await other.query(`select "id" from "trainings" where "id" = $1 for update`, [ids.training]);
      // Sent at once (inject sends only when asked for its answer: then() asks).
      const answer = call(cast.tokens.contentmanager, "POST", "/authoring/questionnaires", {
        training_id: ids.training,
        name: "Abgebrochen",
      }).then((res) => res);
      /**
       * Cancels the waiting statement of a transaction begun after `after`, and gives its start.
       * Asked on the server's pool: the other session, inside its transaction, would see
       * pg_stat_activity as it was when it first looked.
       */
      const cancelWaiting = async (after: Date | null): Promise<Date> => {
        let started: Date | null = null;
        await vi.waitFor(
          async () => {
            const { rows } = await ctx.deps.database.db.execute<{ pid: number; xact_start: Date }>(
              sql`select pid, xact_start from pg_stat_activity
               where datname = current_database() and state = 'active' and wait_event_type = 'Lock'
                 and query like '%for no key update%'`,
            );
            const waiting = rows.find((r) => after === null || new Date(r.xact_start) > after);
            expect(waiting).toBeDefined();
            await other.query("select pg_cancel_backend($1)", [waiting?.pid]);
            started = waiting ? new Date(waiting.xact_start) : null;
          },
          { timeout: 10_000 },
        );
        return started as unknown as Date;
      };
      const first = await cancelWaiting(null);
      // The request is not answered yet: its transaction runs again and waits again.
      await cancelWaiting(first);
      const res = await answer;
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ error_code: ErrorCode.busy, message: expect.any(String), status_code: 503 });
      expect(res.headers["retry-after"]).toBe("1");
    } finally {
      await other.query("rollback");
      await other.end();
    }
    // Nothing of it was written.
    const tree = (await call(cast.tokens.contentmanager, "GET", "/authoring")).json();
    expect(JSON.stringify(tree)).not.toContain("Abgebrochen");
  });
});
