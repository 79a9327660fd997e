import { ErrorCode } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureIds, importFixture, passQuestionnaire, writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, createUser, login, PNG_1X1, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { certificates } from "../db/schema";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let ids: FixtureIds;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  ids = await importFixture(ctx.deps.database.db);
});
afterAll(() => ctx.close());

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const call = (token: string, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const question = (over: Record<string, unknown> = {}) => ({
  type: "single",
  text: "Wo hängt unser Alarmplan?",
  answers: [
    { text: "Am Empfang", correct: true },
    { text: "Im Keller", correct: false },
  ],
  explanation: "<p>Am <strong>Empfang</strong>.</p>",
  hint: "Gehen Sie zum Eingang.",
  media: null,
  ...over,
});

const learning = () => `/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires`;

/** Answers every open question of a questionnaire right. */
const pass = (token: string, qn: number) => passQuestionnaire(ctx, ids, token, qn);

let facilityQn = 0;

describe("facility questionnaires", () => {
  it("refuses employees, lets supervisors read only", async () => {
    expect((await call(cast.tokens.employee, "GET", "/authoring")).statusCode).toBe(403);
    const create = { training_id: ids.training, name: "Unser Alarmplan" };
    expect((await call(cast.tokens.employee, "POST", "/authoring/questionnaires", create)).statusCode).toBe(403);
    expect((await call(cast.tokens.supervisor, "GET", "/authoring")).statusCode).toBe(200);
    expect((await call(cast.tokens.supervisor, "POST", "/authoring/questionnaires", create)).statusCode).toBe(403);
  });

  it("an administrator writes a draft that no learner sees", async () => {
    const res = await call(cast.tokens.administrator, "POST", "/authoring/questionnaires", {
      training_id: ids.training,
      name: "Unser Alarmplan",
    });
    expect(res.statusCode).toBe(200);
    const qn = res.json();
    expect(qn).toMatchObject({ origin: "facility", facility_id: cast.facilityA.id, status: "draft", editable: true });
    facilityQn = qn.id;

    // Invalid content is refused with the rule named, and nothing is written.
    const bad = await call(
      cast.tokens.administrator,
      "POST",
      `/authoring/questionnaires/${facilityQn}/questions`,
      question({
        answers: [
          { text: "A", correct: true },
          { text: "B", correct: true },
        ],
      }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/singleNeedsOneCorrect/);
    const none = await call(
      cast.tokens.administrator,
      "POST",
      `/authoring/questionnaires/${facilityQn}/questions`,
      question({
        type: "multiple",
        answers: [
          { text: "A", correct: false },
          { text: "B", correct: false },
        ],
      }),
    );
    expect(none.json().message).toMatch(/multipleNeedsCorrect/);
    const one = await call(
      cast.tokens.administrator,
      "POST",
      `/authoring/questionnaires/${facilityQn}/questions`,
      question({ answers: [{ text: "A", correct: true }] }),
    );
    expect(one.json().message).toMatch(/answersTooFew/);
    expect(
      (await call(cast.tokens.administrator, "GET", `/authoring/questionnaires/${facilityQn}`)).json().questions,
    ).toEqual([]);
    // Publishing an empty questionnaire: 409.
    expect(
      (await call(cast.tokens.administrator, "POST", `/authoring/questionnaires/${facilityQn}/publish`)).statusCode,
    ).toBe(409);

    const ok = await call(
      cast.tokens.administrator,
      "POST",
      `/authoring/questionnaires/${facilityQn}/questions`,
      question(),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().questionnaire.questions).toHaveLength(1);
    const second = await call(
      cast.tokens.administrator,
      "POST",
      `/authoring/questionnaires/${facilityQn}/questions`,
      question({
        type: "multiple",
        text: "Wer wird alarmiert?",
        answers: [
          { text: "Die Feuerwehr", correct: true },
          { text: "Die Pflegedienstleitung", correct: true },
          { text: "Niemand", correct: false },
        ],
      }),
    );
    expect(second.statusCode).toBe(200);

    // A draft: invisible to the facility's learners, its path unknown.
    const detail = (await call(cast.tokens.employee, "GET", learning())).json();
    expect(detail.questionnaires.map((q: { id: number }) => q.id)).not.toContain(facilityQn);
    const asked = await call(cast.tokens.employee, "GET", `${learning()}/${facilityQn}/questions`);
    expect(asked.statusCode).toBe(404);
    expect(asked.json().error_code).toBe(ErrorCode.questionnaireNotFound);
  });

  it("another facility never sees it (404), nor edits it", async () => {
    for (const [method, url, body] of [
      ["GET", `/authoring/questionnaires/${facilityQn}`, undefined],
      ["PATCH", `/authoring/questionnaires/${facilityQn}`, { name: "X" }],
      ["POST", `/authoring/questionnaires/${facilityQn}/publish`, undefined],
      ["POST", `/authoring/questionnaires/${facilityQn}/questions`, question()],
    ] as const) {
      const res = await call(cast.tokens.administratorB, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error_code).toBe(ErrorCode.questionnaireNotFound);
    }
    const tree = (await call(cast.tokens.administratorB, "GET", "/authoring")).json();
    const all = tree.topics.flatMap((t: { trainings: { questionnaires: { id: number }[] }[] }) =>
      t.trainings.flatMap((tr) => tr.questionnaires.map((q) => q.id)),
    );
    expect(all).not.toContain(facilityQn);
    // The supervisor of the facility reads it, without editing.
    const read = await call(cast.tokens.supervisor, "GET", `/authoring/questionnaires/${facilityQn}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().editable).toBe(false);
    expect(
      (await call(cast.tokens.supervisor, "PATCH", `/authoring/questionnaires/${facilityQn}`, { name: "X" }))
        .statusCode,
    ).toBe(403);
  });

  it("published, it counts towards the training in its facility only; certificates held stay", async () => {
    const db = ctx.deps.database.db;
    // A learner with a certificate of the training before the questionnaire is published.
    const holder = await createUser(ctx, ["employee"], cast.facilityA.id);
    const holderToken = await login(ctx, holder.login);
    await pass(holderToken, ids.qn1);
    await pass(holderToken, ids.qn2);
    expect(await db.select().from(certificates).where(eq(certificates.userId, holder.id))).toHaveLength(1);

    const before = (await call(cast.tokens.employee, "GET", learning())).json().training.total;
    const res = await call(cast.tokens.administrator, "POST", `/authoring/questionnaires/${facilityQn}/publish`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "published", certificates_held: 1 });

    const detail = (await call(cast.tokens.employee, "GET", learning())).json();
    const own = detail.questionnaires.find((q: { id: number }) => q.id === facilityQn);
    expect(own).toMatchObject({ origin: "facility", can_edit: false, total: 2 });
    expect(detail.training.total).toBe(before + 2);
    // The administrator, were they also a learner, would get the edit button.
    const adminLearner = await createUser(ctx, ["administrator", "employee"], cast.facilityA.id);
    const adminDetail = (await call(await login(ctx, adminLearner.login), "GET", learning())).json();
    expect(adminDetail.questionnaires.find((q: { id: number }) => q.id === facilityQn)?.can_edit).toBe(true);

    // The other facility: not in the list, its path unknown, its totals unchanged.
    const other = (await call(cast.tokens.employeeB, "GET", learning())).json();
    expect(other.questionnaires.map((q: { id: number }) => q.id)).not.toContain(facilityQn);
    expect(other.training.total).toBe(before);
    const foreign = await call(cast.tokens.employeeB, "GET", `${learning()}/${facilityQn}/questions`);
    expect(foreign.statusCode).toBe(404);

    // The certificate holder keeps the certificate and a finished training.
    const held = (await call(holderToken, "GET", learning())).json();
    expect(held.training.certificate).not.toBeNull();
    expect(held.training.count).toBe(held.training.total);

    // A learner of the facility passes the training only with the facility's questionnaire.
    const learner = await createUser(ctx, ["employee"], cast.facilityA.id);
    const token = await login(ctx, learner.login);
    await pass(token, ids.qn1);
    await pass(token, ids.qn2);
    expect(await db.select().from(certificates).where(eq(certificates.userId, learner.id))).toHaveLength(0);
    await pass(token, facilityQn);
    const done = (await call(token, "GET", learning())).json();
    expect(done.questionnaires.find((q: { id: number }) => q.id === facilityQn)).toMatchObject({
      finished: true,
      count: 2,
    });
    expect(await db.select().from(certificates).where(eq(certificates.userId, learner.id))).toHaveLength(1);
  });

  it("a passive or unknown training takes no questionnaire", async () => {
    expect(
      (
        await call(cast.tokens.administrator, "POST", "/authoring/questionnaires", {
          training_id: ids.passive,
          name: "X",
        })
      ).statusCode,
    ).toBe(409);
    const unknown = await call(cast.tokens.administrator, "POST", "/authoring/questionnaires", {
      training_id: 999999,
      name: "X",
    });
    expect(unknown.json().error_code).toBe(ErrorCode.trainingNotFound);
  });
});

describe("common content", () => {
  it("a content manager edits a package question after it was answered: a new version, nobody reset", async () => {
    const qn = (await call(cast.tokens.contentmanager, "GET", `/authoring/questionnaires/${ids.qn2}`)).json();
    expect(qn).toMatchObject({ origin: "package", editable: true });
    const q = qn.questions[0];
    expect(q.answered).toBe(true);
    // Administrators may not change common content.
    expect((await call(cast.tokens.administrator, "PUT", `/authoring/questions/${q.id}`, question())).statusCode).toBe(
      403,
    );
    const before = (await call(cast.tokens.employee, "GET", learning())).json();

    const saved = await call(cast.tokens.contentmanager, "PUT", `/authoring/questions/${q.id}`, {
      type: "single",
      text: `${q.text} (klarer)`,
      answers: q.answers.map((a: { text: string; correct: boolean }) => ({ text: a.text, correct: a.correct })),
      explanation: q.explanation,
      hint: q.hint,
      media: null,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().versioned).toBe(true);
    expect(saved.json().question_id).not.toBe(q.id);
    // The replaced version is no longer there to save (1007): the editor opens the new one.
    expect((await call(cast.tokens.contentmanager, "PUT", `/authoring/questions/${q.id}`, question())).statusCode).toBe(
      404,
    );

    const after = (await call(cast.tokens.employee, "GET", learning())).json();
    expect(after.training).toMatchObject({ count: before.training.count, total: before.training.total });

    // A later import of the package leaves the edited question as the content manager wrote it.
    await importPackage(ctx.deps.database.db, loadPackage(writeFixture({ version: "1.5.0" })));
    const again = (await call(cast.tokens.contentmanager, "GET", `/authoring/questionnaires/${ids.qn2}`)).json();
    expect(again.questions.find((x: { id: number }) => x.id === saved.json().question_id)?.text).toContain("(klarer)");
  });

  it("creates and edits topics and trainings (Super-Admins only)", async () => {
    const topic = { name: "Brandschutz", icon: "hygiene", color: "#b91c1c" };
    expect((await call(cast.tokens.administrator, "POST", "/authoring/topics", topic)).statusCode).toBe(403);
    const created = await call(cast.tokens.contentmanager, "POST", "/authoring/topics", topic);
    expect(created.statusCode).toBe(200);
    const topicId = created.json().id;
    expect(
      (await call(cast.tokens.contentmanager, "PUT", `/authoring/topics/${topicId}`, { ...topic, color: "red" }))
        .statusCode,
    ).toBe(400);
    const training = {
      topic_id: topicId,
      name: "Alarmplan",
      icon: "haende",
      validity_months: 24,
      passive: false,
      points: 5,
      wiki_link: null,
    };
    const tr = await call(cast.tokens.superchris, "POST", "/authoring/trainings", training);
    expect(tr.statusCode).toBe(200);
    expect(
      (
        await call(cast.tokens.contentmanager, "PUT", `/authoring/trainings/${tr.json().id}`, {
          ...training,
          validity_months: 0,
        })
      ).statusCode,
    ).toBe(400);
    const tree = (await call(cast.tokens.contentmanager, "GET", "/authoring")).json();
    const t = tree.topics.find((x: { id: number }) => x.id === topicId);
    expect(t).toMatchObject({
      origin: "common",
      trainings: [{ name: "Alarmplan", origin: "common", validity_months: 24 }],
    });
  });
});

/** Explanations are stored sanitised: nothing of any script survives (ARCHITECTURE §2 'HTML sanitising'). */
const CORPUS = [
  "<script>alert(1)</script><p>x</p>",
  '<img src=x onerror="alert(1)"><p>x</p>',
  '<p onclick="alert(1)">x</p>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  "<svg><script>alert(1)</script></svg><p>x</p>",
  '<iframe src="javascript:alert(1)"></iframe><p>x</p>',
  '<p style="background:url(javascript:alert(1))">x</p>',
  "<scr<script>ipt>alert(1)</scr</script>ipt><p>x</p>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math><p>x</p>",
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<form action="javascript:alert(1)"><button>x</button></form><p>x</p>',
  '<p><object data="javascript:alert(1)"></object>x</p>',
  "<details open ontoggle=alert(1)><p>x</p></details>",
];

describe("explanations", () => {
  it.each(CORPUS)("no script survives: %s", async (html) => {
    const res = await call(
      cast.tokens.administrator,
      "POST",
      `/authoring/questionnaires/${facilityQn}/questions`,
      question({ text: `Korpus ${CORPUS.indexOf(html)}`, explanation: html }),
    );
    expect(res.statusCode).toBe(200);
    const stored = res.json().questionnaire.questions.find((q: { id: number }) => q.id === res.json().question_id);
    expect(stored.explanation).not.toMatch(
      /<script|<iframe|<object|<svg|<img|<form|<style|on[a-z]+\s*=|javascript:|data:/i,
    );
  });
});

describe("media uploads", () => {
  // A complete PNG: an image is stored as its image data only, one ending early is refused.
  const PNG = PNG_1X1;
  const upload = (token: string, type: string, body: Buffer) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/authoring/media",
      headers: { ...bearer(token), "content-type": type },
      payload: body,
    });

  it("stores an image for the facility, served only there", async () => {
    const res = await upload(cast.tokens.administrator, "image/png", PNG);
    expect(res.statusCode).toBe(200);
    const { id, type, src } = res.json();
    expect(type).toBe("image");
    expect((await call(cast.tokens.employee, "GET", src.replace("/api", ""))).statusCode).toBe(200);
    expect((await call(cast.tokens.employeeB, "GET", src.replace("/api", ""))).statusCode).toBe(404);
    // Attached to a question of the facility's questionnaire.
    const saved = await call(
      cast.tokens.administrator,
      "POST",
      `/authoring/questionnaires/${facilityQn}/questions`,
      question({ text: "Mit Bild", media: { type: "image", id } }),
    );
    expect(saved.statusCode).toBe(200);
    // Another facility cannot attach it.
    const other = await call(cast.tokens.contentmanager, "POST", "/authoring/questionnaires", {
      training_id: ids.training,
      name: "Z",
    });
    const foreign = await call(
      cast.tokens.contentmanager,
      "POST",
      `/authoring/questionnaires/${other.json().id}/questions`,
      question({ media: { type: "image", id } }),
    );
    expect(foreign.statusCode).toBe(404);
  });

  it("refuses other types, false types, too large files and learners", async () => {
    expect((await upload(cast.tokens.employee, "image/png", PNG)).statusCode).toBe(403);
    expect((await upload(cast.tokens.supervisor, "image/png", PNG)).statusCode).toBe(403);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await upload(cast.tokens.administrator, "application/octet-stream", svg)).statusCode).toBe(415);
    expect((await upload(cast.tokens.administrator, "image/jpeg", PNG)).statusCode).toBe(415);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024, 0)]);
    expect((await upload(cast.tokens.administrator, "image/png", big)).statusCode).toBe(413);
    expect((await upload(cast.tokens.administrator, "image/png", Buffer.alloc(0))).statusCode).toBe(400);
  });
});
