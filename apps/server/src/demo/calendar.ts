import { calendarDay, EVENT_COLOURS, zonedTime } from "@carecampus/contract";
import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { calendarEvents, calendarInvitees, facilities, trainings, userRoles, users } from "../db/schema";

/**
 * Training dates of the demo facilities, so /calendar shows what a care home plans: an
 * in-person resuscitation course yesterday (attendance still to record), one next week, a
 * fire-safety briefing and a hygiene day. [facility, training key, label, place, days from
 * today, start hour (null: all day), hours, colour, organiser login]
 */
const EVENTS: [string, string, string, string | null, number, number | null, number, number, string][] = [
  ["Haus Sonnenhof", "reanimationskurs", "Reanimation Frühdienst", "Schulungsraum EG", -1, 14, 2, 3, "supervisor"],
  ["Haus Sonnenhof", "reanimationskurs", "Reanimation Spätdienst", "Schulungsraum EG", 7, 13, 2, 3, "supervisor"],
  ["Haus Sonnenhof", "brandschutz-grundlagen", "Brandschutzunterweisung", "Speisesaal", 10, 10, 1, 4, "admin"],
  ["Haus Sonnenhof", "haendehygiene", "Hygienetag", null, 16, null, 1, 0, "admin"],
  ["Haus Lindenhof", "reanimationskurs", "Reanimation", "Therapieraum", 5, 9, 3, 3, "admin2"],
];

/** Adds the demo dates (demo mode, after the colleagues): every employee of the facility is invited. */
export async function seedDemoCalendar(db: Db | Tx, now: Date, zone: string): Promise<void> {
  const keys = [...new Set(EVENTS.map((e) => e[1]))];
  const trainingRows = await db
    .select({ id: trainings.id, key: trainings.key, topicId: trainings.topicId })
    .from(trainings)
    .where(and(inArray(trainings.key, keys), eq(trainings.retired, false)));
  const training = new Map(trainingRows.map((t) => [t.key, t]));
  const facilityId = new Map(
    (await db.select({ id: facilities.id, name: facilities.name }).from(facilities)).map((f) => [f.name, f.id]),
  );
  const people = await db
    .select({ id: users.id, login: users.login, facilityId: users.facilityId, role: userRoles.role })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id));
  const today = calendarDay(now, zone);
  await db.transaction(async (tx) => {
    for (const [facility, key, label, location, days, hour, length, colour, organiser] of EVENTS) {
      const t = training.get(key);
      const fid = facilityId.get(facility);
      if (!t || fid === undefined) continue;
      const allDay = hour === null;
      const startsAt = zonedTime(zone, today.year, today.month, today.day + days, hour ?? 0);
      const endsAt = allDay
        ? zonedTime(zone, today.year, today.month, today.day + days + length)
        : zonedTime(zone, today.year, today.month, today.day + days, (hour ?? 0) + length);
      const [row] = await tx
        .insert(calendarEvents)
        .values({
          facilityId: fid,
          topicId: t.topicId,
          trainingId: t.id,
          label,
          location,
          color: EVENT_COLOURS[colour] ?? EVENT_COLOURS[0],
          allDay,
          startsAt,
          endsAt,
          organiserId: people.find((p) => p.login === organiser)?.id ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: calendarEvents.id });
      const invitees = [
        ...new Set(people.filter((p) => p.facilityId === fid && p.role === "employee").map((p) => p.id)),
      ];
      if (row && invitees.length > 0) {
        await tx.insert(calendarInvitees).values(invitees.map((userId) => ({ eventId: row.id, userId })));
      }
    }
  });
}
