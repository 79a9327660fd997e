import fs from "node:fs";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { createFacility, createTestApp, type TestContext } from "../../test/helpers";
import type { Tx } from "../db/client";
import { answers, questionnaires, questions, topics, trainings } from "../db/schema";
import { loadPackage } from "./package";
import { importPackage } from "./service";
import { saveQuestion } from "./versions";

/*
 * Content ownership (ARCHITECTURE decision 13): an import changes and retires only package
 * content; what was written in the app (common or for one facility) stays as it was, and the
 * package content it lives in is not retired under it.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const question = (text: string, origin: "common" | "facility") => ({
  type: "single",
  text,
  explanation: "<p>Weil.</p>",
  hint: null,
  mediaId: null,
  position: 9,
  origin,
  answers: [
    { text: "Ja", correct: true },
    { text: "Nein", correct: false },
  ],
});

describe("content ownership", () => {
  it("a package re-import leaves app content untouched", async () => {
    const db = ctx.deps.database.db;
    const facility = await createFacility(ctx);
    await importPackage(db, loadPackage(writeFixture()));
    const [haende] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
    const [hygiene] = await db.select().from(topics).where(eq(topics.key, "hygiene"));
    if (!haende || !hygiene) throw new Error("fixture not imported");
    const packageQns = await db.select().from(questionnaires).where(eq(questionnaires.trainingId, haende.id));
    const qn2 = packageQns.find((q) => q.key === "2");
    if (!qn2) throw new Error("no questionnaire 2");

    // Written in the app: a common topic with a common training and questionnaire; a facility
    // questionnaire in the package training; a common question in a package questionnaire.
    await db.transaction(async (tx: Tx) => {
      const [topic] = await tx
        .insert(topics)
        .values({
          key: "@t-brand",
          name: "Brandschutz",
          icon: "hygiene",
          color: "#aa0000",
          position: 5,
          origin: "common",
        })
        .returning();
      const [training] = await tx
        .insert(trainings)
        .values({ key: "@tr-alarm", topicId: topic?.id ?? 0, name: "Alarmplan", icon: "haende", origin: "common" })
        .returning();
      const [common] = await tx
        .insert(questionnaires)
        .values({ trainingId: training?.id ?? 0, key: "@q-alarm", name: "Alarm", position: 0, origin: "common" })
        .returning();
      await saveQuestion(tx, common?.id ?? 0, "@a1", question("Wo hängt der Plan?", "common"), new Date());
      const [own] = await tx
        .insert(questionnaires)
        .values({
          trainingId: haende.id,
          key: "@q-haus",
          name: "Unser Hygieneplan",
          position: 10,
          origin: "facility",
          facilityId: facility.id,
          status: "published",
        })
        .returning();
      await saveQuestion(tx, own?.id ?? 0, "@h1", question("Wo steht unser Plan?", "facility"), new Date());
      await saveQuestion(tx, qn2.id, "@c1", question("Eine Frage der Zentrale?", "common"), new Date());
    });

    const appRows = async () => ({
      topics: await db.select().from(topics).where(eq(topics.origin, "common")),
      trainings: await db.select().from(trainings).where(eq(trainings.origin, "common")),
      questionnaires: await db
        .select()
        .from(questionnaires)
        .where(inArray(questionnaires.origin, ["common", "facility"])),
      questions: await db
        .select()
        .from(questions)
        .where(inArray(questions.origin, ["common", "facility"])),
    });
    const before = await appRows();
    const appAnswers = await db
      .select()
      .from(answers)
      .where(
        inArray(
          answers.questionId,
          before.questions.map((q) => q.id),
        ),
      );
    expect(before.questions).toHaveLength(3);

    // Version 2 of the package: the training haende is gone, and so is the topic of the app's
    // own topic (it never was the package's).
    const dir = writeFixture({ version: "2.0.0" });
    fs.rmSync(path.join(dir, "trainings/haende.yaml"));
    const result = await importPackage(db, loadPackage(dir));
    expect(result.status).toBe("imported");

    // Every app row exactly as it was.
    expect(await appRows()).toEqual(before);
    expect(
      await db
        .select()
        .from(answers)
        .where(
          inArray(
            answers.questionId,
            before.questions.map((q) => q.id),
          ),
        ),
    ).toEqual(appAnswers);
    // The package training holds a facility questionnaire: it stays live, and its package
    // questionnaire 2 (which holds a common question) too; questionnaire 1 had only package
    // questions and is retired with the training's package content.
    const [haendeAfter] = await db.select().from(trainings).where(eq(trainings.id, haende.id));
    expect(haendeAfter?.retired).toBe(false);
    const qnsAfter = await db.select().from(questionnaires).where(eq(questionnaires.trainingId, haende.id));
    expect(Object.fromEntries(qnsAfter.map((q) => [q.key, q.retired]))).toEqual({
      "1": true,
      "2": false,
      "@q-haus": false,
    });
    // Package questions of the kept questionnaire 2 are retired; the common one is not.
    const q2Questions = await db.select().from(questions).where(eq(questions.questionnaireId, qn2.id));
    expect(Object.fromEntries(q2Questions.map((q) => [q.key, q.retired]))).toEqual({ q1: true, "@c1": false });
    const [hygieneAfter] = await db.select().from(topics).where(eq(topics.id, hygiene.id));
    expect(hygieneAfter?.retired).toBe(false);
  });
});
