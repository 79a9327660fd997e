import { addMonths, calendarDay, newVerificationCode, zonedTime } from "@carecampus/contract";
import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { certificates, facilities, helpRequests, questionnaires, questions, trainings } from "../db/schema";
import { hashPassword } from "../security/passwords";
import { insertUser } from "../users/service";
import { DEMO_PASSWORD } from "./seed";

/**
 * Colleagues of the demo employees, so the progress overview shows a real picture: names
 * from the languages the staff of German care homes speak, certificates in every state.
 * Each entry: days until expiry per training key (negative: expired; absent: none).
 */
const COLLEAGUES: { facility: string; name: string; surname: string; certs: Record<string, number> }[] = [
  {
    facility: "Haus Sonnenhof",
    name: "Jürgen",
    surname: "Weiß",
    certs: { haendehygiene: 200, "brandschutz-grundlagen": 150, "dsgvo-grundlagen": 90, "erste-hilfe-notfall": 300 },
  },
  {
    facility: "Haus Sonnenhof",
    name: "Ayşe",
    surname: "Öztürk",
    certs: { haendehygiene: 20, "brandschutz-grundlagen": 6, lebensmittelhygiene: 120, reanimationskurs: 40 },
  },
  {
    facility: "Haus Sonnenhof",
    name: "Hélène",
    surname: "Lefèvre",
    certs: { haendehygiene: -12, "dsgvo-grundlagen": 3, schweigepflicht: 250, medikamentenmanagement: 25 },
  },
  {
    facility: "Haus Sonnenhof",
    name: "Grzegorz",
    surname: "Wiśniewski",
    certs: {
      haendehygiene: 330,
      "brandschutz-grundlagen": 330,
      evakuierung: 45,
      "sturzprophylaxe-grundlagen": 12,
      reanimationskurs: -40,
    },
  },
  {
    facility: "Haus Sonnenhof",
    name: "Maria",
    surname: "Papadopoulou",
    certs: { "multiresistente-erreger": 60, "demenz-grundlagen": 180, "rueckengerechtes-arbeiten": 18 },
  },
  {
    facility: "Haus Lindenhof",
    name: "Svetlana",
    surname: "Iwanowa",
    certs: { haendehygiene: 100, "brandschutz-grundlagen": 28, "dsgvo-grundlagen": 210, reanimationskurs: 2 },
  },
  {
    facility: "Haus Lindenhof",
    name: "Mehmet",
    surname: "Kaya",
    certs: { haendehygiene: -3, "brandschutz-grundlagen": 260, "erste-hilfe-notfall": 14, gefahrstoffe: 75 },
  },
  {
    facility: "Haus Lindenhof",
    name: "Anna",
    surname: "Schmidt",
    certs: { haendehygiene: 280, lebensmittelhygiene: 35, schweigepflicht: 9, "herausforderndes-verhalten": 160 },
  },
];

/**
 * Help requests of the colleagues, so /helprequests shows what staff meet in daily use: three
 * learners of Haus Sonnenhof unsure about one question (orange), one about another, one in
 * Haus Lindenhof. [colleague surname, training key, questionnaire key, question key, hours ago]
 */
const HELP_REQUESTS: [string, string, string, string, number][] = [
  ["Öztürk", "haendehygiene", "1", "q1", 30],
  ["Lefèvre", "haendehygiene", "1", "q1", 20],
  ["Wiśniewski", "haendehygiene", "1", "q1", 3],
  ["Papadopoulou", "brandschutz-grundlagen", "1", "q1", 50],
  ["Kaya", "haendehygiene", "1", "q2", 6],
];

/** Adds the colleagues (demo mode, after the content import); their logins are not printed. */
export async function seedDemoColleagues(db: Db | Tx, now: Date, zone: string): Promise<void> {
  const hash = await hashPassword(DEMO_PASSWORD);
  const keys = [...new Set(COLLEAGUES.flatMap((c) => Object.keys(c.certs)))];
  const known = await db
    .select({
      id: trainings.id,
      key: trainings.key,
      validityMonths: trainings.validityMonths,
      points: trainings.points,
    })
    .from(trainings)
    .where(and(inArray(trainings.key, keys), eq(trainings.retired, false)));
  const byKey = new Map(known.map((t) => [t.key, t]));
  const today = calendarDay(now, zone);
  const facilityRows = await db.select({ id: facilities.id, name: facilities.name }).from(facilities);
  const facilityId = new Map(facilityRows.map((f) => [f.name, f.id]));
  const questionRows = await db
    .select({ id: questions.id, training: trainings.key, questionnaire: questionnaires.key, key: questions.key })
    .from(questions)
    .innerJoin(questionnaires, eq(questionnaires.id, questions.questionnaireId))
    .innerJoin(trainings, eq(trainings.id, questionnaires.trainingId))
    .where(eq(questions.retired, false));
  const questionId = new Map(questionRows.map((q) => [`${q.training}/${q.questionnaire}/${q.key}`, q.id]));
  await db.transaction(async (tx) => {
    const colleagueIds = new Map<string, { id: number; facilityId: number | null }>();
    for (const [i, c] of COLLEAGUES.entries()) {
      const id = await insertUser(
        tx,
        {
          login: `demo.${c.surname
            .normalize("NFD")
            .replace(/[^A-Za-z]/g, "")
            .toLowerCase()}${i + 1}`,
          name: c.name,
          surname: c.surname,
          password: DEMO_PASSWORD,
          roles: ["employee"],
          facilityId: facilityId.get(c.facility) ?? null,
        },
        hash,
      );
      colleagueIds.set(c.surname, { id, facilityId: facilityId.get(c.facility) ?? null });
      for (const [key, days] of Object.entries(c.certs)) {
        const training = byKey.get(key);
        if (!training) continue;
        // 18:00 in the configured zone, `days` calendar days from today.
        const expiresAt = zonedTime(zone, today.year, today.month, today.day + days, 18);
        const acquiredAt = addMonths(expiresAt, -training.validityMonths, zone);
        await tx.insert(certificates).values({
          userId: id,
          trainingId: training.id,
          acquiredAt,
          expiresAt,
          points: training.points,
          verificationCode: newVerificationCode(),
        });
      }
    }
    for (const [surname, training, questionnaire, key, hoursAgo] of HELP_REQUESTS) {
      const who = colleagueIds.get(surname);
      const question = questionId.get(`${training}/${questionnaire}/${key}`);
      if (!who || !question) continue;
      await tx.insert(helpRequests).values({
        userId: who.id,
        questionId: question,
        facilityId: who.facilityId,
        createdAt: new Date(now.getTime() - hoursAgo * 3_600_000),
      });
    }
  });
}
