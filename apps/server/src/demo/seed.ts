import crypto from "node:crypto";
import { addMonths, calendarDay, generatePassword, type Role, zonedTime } from "@carecampus/contract";
import { and, eq } from "drizzle-orm";
import { hashPassword } from "../auth/passwords";
import type { Db } from "../db/client";
import { activities, appMeta, certificates, facilities, qualifications, trainings, users } from "../db/schema";
import { ACTIVITY_FOCUS, JOB_QUALIFICATIONS } from "../db/seed-lists";
import { countUsers, insertUser } from "../users/service";

export const DEMO_PASSWORD = "Demo-1234!";
export const DEMO_FACILITIES = ["Haus Sonnenhof", "Haus Lindenhof"] as const;

interface DemoUser {
  login: string;
  name: string;
  surname: string;
  roles: Role[];
  facility: (typeof DEMO_FACILITIES)[number] | null;
  avatar: "female" | "male" | "owl" | "fox" | "penguin" | "bee" | "dolphin";
}

/** The seven demo users of ARCHITECTURE decision 15. */
export const DEMO_USERS: readonly DemoUser[] = [
  { login: "superchris", name: "Chris", surname: "Berger", roles: ["superchris"], facility: null, avatar: "owl" },
  { login: "content", name: "Clara", surname: "Inhalt", roles: ["contentmanager"], facility: null, avatar: "fox" },
  {
    login: "admin",
    name: "Andrea",
    surname: "Schulz",
    roles: ["administrator"],
    facility: "Haus Sonnenhof",
    avatar: "female",
  },
  {
    login: "supervisor",
    name: "Stefan",
    surname: "Wagner",
    roles: ["supervisor"],
    facility: "Haus Sonnenhof",
    avatar: "male",
  },
  {
    login: "employee",
    name: "Emma",
    surname: "Müller",
    roles: ["employee"],
    facility: "Haus Sonnenhof",
    avatar: "bee",
  },
  {
    login: "admin2",
    name: "Aylin",
    surname: "Yıldız",
    roles: ["administrator"],
    facility: "Haus Lindenhof",
    avatar: "penguin",
  },
  {
    login: "employee2",
    name: "Łukasz",
    surname: "Nowak",
    roles: ["employee"],
    facility: "Haus Lindenhof",
    avatar: "dolphin",
  },
];

/** Reference lists every installation needs: job qualifications and areas of focus. */
export async function seedReferenceLists(db: Db): Promise<void> {
  await db
    .insert(qualifications)
    .values(JOB_QUALIFICATIONS.map((name) => ({ name })))
    .onConflictDoNothing();
  await db
    .insert(activities)
    .values(ACTIVITY_FOCUS.map((name) => ({ name })))
    .onConflictDoNothing();
}

export interface SeedResult {
  created: "demo" | "admin" | "none";
  /** Lines to print once at start-up (demo logins, or the generated admin password). */
  lines: string[];
}

/**
 * On an empty database: the demo facilities and users (demo mode), or a single superchris
 * whose password comes from ADMIN_PASSWORD or is generated and printed once. One transaction.
 */
export async function seedIfEmpty(db: Db, demo: boolean, adminPassword: string | undefined): Promise<SeedResult> {
  await seedReferenceLists(db);
  if ((await countUsers(db)) > 0) return { created: "none", lines: [] };
  if (!demo) {
    const password = adminPassword ?? generatePassword((n) => crypto.randomInt(n));
    await db.transaction(async (tx) => {
      await insertUser(tx, {
        login: "superchris",
        name: "Super",
        surname: "User",
        password,
        roles: ["superchris"],
        facilityId: null,
      });
      await tx.insert(appMeta).values({ key: "seeded", value: "admin" }).onConflictDoNothing();
    });
    return {
      created: "admin",
      lines: adminPassword
        ? ["Created the first user 'superchris' with the password from ADMIN_PASSWORD."]
        : [`Created the first user 'superchris' with the password: ${password}`, "It is shown only this once."],
    };
  }
  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const facilityIds = new Map<string, number>();
    for (const name of DEMO_FACILITIES) {
      const [row] = await tx.insert(facilities).values({ name }).returning({ id: facilities.id });
      facilityIds.set(name, (row as { id: number }).id);
    }
    const quals = await tx.select({ id: qualifications.id }).from(qualifications).orderBy(qualifications.id).limit(3);
    const acts = await tx.select({ id: activities.id }).from(activities).orderBy(activities.id).limit(2);
    for (const u of DEMO_USERS) {
      const isEmployee = u.roles.includes("employee");
      await insertUser(
        tx,
        {
          login: u.login,
          name: u.name,
          surname: u.surname,
          password: DEMO_PASSWORD,
          roles: u.roles,
          facilityId: u.facility ? (facilityIds.get(u.facility) ?? null) : null,
          avatar: u.avatar,
          qualificationIds: isEmployee ? quals.slice(0, 1).map((q) => q.id) : [],
          activityIds: isEmployee ? acts.slice(0, 1).map((a) => a.id) : [],
          email: `${u.login}@carecampus.example`,
        },
        hash,
      );
    }
    await tx.insert(appMeta).values({ key: "seeded", value: "demo" }).onConflictDoNothing();
  });
  return {
    created: "demo",
    lines: [
      `Demo logins (password ${DEMO_PASSWORD}):`,
      ...DEMO_USERS.map((u) => `  ${u.login.padEnd(11)} ${u.roles.join(",").padEnd(15)} ${u.facility ?? ""}`),
    ],
  };
}

/** The demo certificate about to expire: its owner, its training, and how many days it has left. */
export const DEMO_EXPIRING_CERTIFICATE = { login: "employee2", training: "haendehygiene", days: 5 } as const;

/**
 * Gives `employee2` a certificate that expires in a few days, so a new installation shows the
 * expiry notices at once (the start-up run of the notification job sends the 7-day notice and
 * admin2's summary). Runs after the demo content import, which brings the training.
 */
export async function seedDemoCertificates(db: Db, now: Date, zone: string): Promise<string[]> {
  const { login, training, days } = DEMO_EXPIRING_CERTIFICATE;
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.login, login));
  const [row] = await db
    .select({
      id: trainings.id,
      name: trainings.name,
      validityMonths: trainings.validityMonths,
      points: trainings.points,
    })
    .from(trainings)
    .where(and(eq(trainings.key, training), eq(trainings.retired, false)));
  if (!user || !row) return [];
  const today = calendarDay(now, zone);
  // 18:00 in the configured zone, `days` calendar days from today.
  const expiresAt = zonedTime(zone, today.year, today.month, today.day + days, 18);
  const acquiredAt = addMonths(expiresAt, -row.validityMonths, zone);
  await db.insert(certificates).values({
    userId: user.id,
    trainingId: row.id,
    acquiredAt,
    expiresAt,
    points: row.points,
    verificationCode: crypto.randomBytes(6).toString("hex").toUpperCase(),
  });
  return [`Demo certificate: ${login} holds "${row.name}", expiring in ${days} days.`];
}
