import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { ContentError, loadPackage } from "../src/content/package";
import { importPackage } from "../src/content/service";
import type { Db } from "../src/db/client";
import { answers, questionnaires, trainings } from "../src/db/schema";

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#0f766e"/></svg>';
const IMAGE =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 300"><rect width="480" height="300" fill="#e6fcf9"/></svg>';

export interface FixtureOptions {
  version?: string;
  /** v2 changes: a renamed question text, one question retired, one added. */
  v2?: boolean;
  files?: Record<string, string>;
  /** The active training's legal_basis line, written as given (YAML); none when absent. */
  legalBasis?: string;
}

/** A small content package on disk: one topic, an active training (2 questionnaires) and a passive one. */
export function writeFixture(options: FixtureOptions = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-content-"));
  const put = (file: string, text: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  put("package.yaml", `version: ${options.version ?? "1.0.0"}\ntitle: Test\n`);
  put("topics.yaml", 'topics:\n  - key: hygiene\n    name: Hygiene\n    icon: hygiene\n    color: "#0f766e"\n');
  put("icons/hygiene.svg", ICON);
  put("icons/haende.svg", ICON);
  put("icons/kurs.svg", ICON);
  put("media/bild.svg", IMAGE);
  // Not a real film: the range tests only need bytes to cut.
  put("media/film.mp4", Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)));
  const q1Text = options.v2 ? "Wie lange desinfizieren Sie die Hände (neu)?" : "Wie lange desinfizieren Sie die Hände?";
  put(
    "trainings/haende.yaml",
    `key: haende
topic: hygiene
name: Händehygiene
icon: haende
validity_months: 12
points: 10
wiki_link: /wiki/hygiene/haende
${options.legalBasis === undefined ? "" : `legal_basis: ${options.legalBasis}\n`}questionnaires:
  - key: "1"
    name: "1"
    questions:
      - key: q1
        type: single
        text: "${q1Text}"
        answers:
          - text: 5 Sekunden
          - text: 30 Sekunden
            correct: true
          - text: 2 Minuten
        explanation: "<p>Mindestens <strong>30 Sekunden</strong>.</p><script>alert(1)</script>"
        hint: Denken Sie an die Einwirkzeit.
        media:
          image: bild.svg
      - key: q2
        type: multiple
        text: Wann desinfizieren Sie die Hände?
        answers:
          - text: Vor Patientenkontakt
            correct: true
          - text: Nach Kontakt mit Körperflüssigkeiten
            correct: true
          - text: Nur nach Dienstende
        explanation: <p>Die fünf Momente.</p>
        hint: Es gibt fünf Momente.
        media:
          video: film.mp4
${
  options.v2
    ? `      - key: q4
        type: single
        text: Ersetzen Handschuhe die Desinfektion?
        answers:
          - text: Ja
          - text: Nein
            correct: true
        explanation: <p>Nein.</p>
`
    : `      - key: q3
        type: single
        text: Ist Nagellack erlaubt?
        answers:
          - text: Ja
          - text: Nein
            correct: true
        explanation: <p>Nein, er beeinträchtigt die Desinfektion.</p>
`
}  - key: "2"
    name: "2"
    questions:
      - key: q1
        type: single
        text: Wie viele Momente der Händehygiene gibt es?
        answers:
          - text: Drei
          - text: Fünf
            correct: true
        explanation: <p>Fünf.</p>
`,
  );
  put(
    "trainings/kurs.yaml",
    "key: kurs\ntopic: hygiene\nname: Reanimationskurs\nicon: kurs\npassive: true\nvalidity_months: 12\npoints: 20\n",
  );
  for (const [file, text] of Object.entries(options.files ?? {})) put(file, text);
  return dir;
}

/** Every problem the importer finds in a package folder (empty: it would import). */
export function problemsOf(dir: string): string[] {
  try {
    loadPackage(dir);
  } catch (err) {
    if (err instanceof ContentError) return err.problems;
    throw err;
  }
  return [];
}

/** The fixture's topic, its active training 'haende' with questionnaires '1' and '2', and the passive 'kurs'. */
export interface FixtureIds {
  topic: number;
  training: number;
  passive: number;
  qn1: number;
  qn2: number;
}

/** Imports the fixture package (writeFixture, or `dir`) into `db` and names what the tests use, by id. */
export async function importFixture(db: Db, dir = writeFixture()): Promise<FixtureIds> {
  await importPackage(db, loadPackage(dir));
  const [t] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
  const [p] = await db.select().from(trainings).where(eq(trainings.key, "kurs"));
  const qns = await db
    .select()
    .from(questionnaires)
    .where(eq(questionnaires.trainingId, t?.id ?? 0));
  return {
    topic: t?.topicId ?? 0,
    training: t?.id ?? 0,
    passive: p?.id ?? 0,
    qn1: qns.find((q) => q.key === "1")?.id ?? 0,
    qn2: qns.find((q) => q.key === "2")?.id ?? 0,
  };
}

/**
 * Answers every open question of a questionnaire of the fixture's training right, as `token`'s
 * learner (questionnaires are learnt in order: the earlier ones first).
 */
export async function passQuestionnaire(
  ctx: { app: FastifyInstance; deps: { database: { db: Db } } },
  ids: FixtureIds,
  token: string,
  qn: number,
): Promise<void> {
  const path = `/api/progress/topics/${ids.topic}/trainings/${ids.training}/questionnaires/${qn}/questions`;
  const headers = { authorization: `Bearer ${token}` };
  for (let i = 0; i < 30; i++) {
    const res = await ctx.app.inject({ method: "GET", url: path, headers });
    if (res.statusCode !== 200) throw new Error(`next question: ${res.statusCode} ${res.body}`);
    const q = res.json().question;
    if (!q) return;
    const right = await ctx.deps.database.db
      .select({ id: answers.id })
      .from(answers)
      .where(and(eq(answers.questionId, q.id), eq(answers.correct, true), eq(answers.retired, false)));
    const a = await ctx.app.inject({
      method: "POST",
      url: `${path}/${q.id}/answers`,
      headers,
      payload: right.map((r) => r.id),
    });
    if (a.statusCode !== 200) throw new Error(`answer: ${a.statusCode} ${a.body}`);
  }
  throw new Error("the questionnaire never finished");
}

/** A question in German as the editor sends it, to translate (issue 31's tests). */
export const HAND_RUB_QUESTION = {
  type: "single",
  text: "Wie lange reiben Sie die Hände mit Desinfektionsmittel ein?",
  answers: [
    { text: "30 Sekunden", correct: true },
    { text: "5 Sekunden", correct: false },
  ],
  explanation: "<p>Mindestens 30 Sekunden, bis die Hände trocken sind.</p>",
  hint: "Zählen Sie mit.",
  media: null,
};
