import { sql } from "drizzle-orm";
import { DEMO_CONTENT } from "../../apps/server/src/bootstrap";
import { loadPackage } from "../../apps/server/src/content/package";
import { importPackage } from "../../apps/server/src/content/service";
import type { Db } from "../../apps/server/src/db/client";
import { generateDataset } from "./dataset";
import { loginAs, timeGets } from "./overview";
import { startServer, stopServer } from "./server";

/** Learners of the one facility (issue 30: "the demo data with 2 000 users in a facility"). */
const USERS = 2_000;
/** Share of learner × training pairs with a certificate, expiring from 60 days ago to 400 days ahead. */
const DENSITY = 0.7;

/**
 * The staff start page's dataset: the demo content (its 16 trainings, its wiki with the pages that
 * ask for a read confirmation) and one facility of 2 000 people (dataset.ts: an administrator, a
 * supervisor, the rest employees) with certificates, 40 open help requests, 12 past events
 * waiting for their attendance and half the facility's confirmations given.
 */
export async function generateStaffHomeDataset(db: Db): Promise<string> {
  await importPackage(db, loadPackage(DEMO_CONTENT));
  const dataset = await generateDataset(db, 1, USERS);
  const facility = sql`(select id from facilities where name = ${dataset.facilityNames[0]})`;
  const learners = sql`select u.id from users u join user_roles r on r.user_id = u.id and r.role = 'employee'
    where u.facility_id = ${facility}`;
  await db.execute(sql`
    insert into certificates (user_id, training_id, acquired_at, expires_at, points, verification_code)
    select l.id, t.id, now() - interval '300 days', now() + make_interval(days => (random() * 460)::int - 60), 10,
      'SH' || l.id || '-' || t.id
    from (${learners}) l cross join trainings t where not t.retired and random() < ${DENSITY}::float8`);
  await db.execute(sql`
    insert into help_requests (user_id, question_id, facility_id)
    select l.id, q.id, ${facility}
    from (${learners} order by u.id limit 40) l
    cross join lateral (select id from questions order by id offset (l.id % 25) limit 1) q`);
  await db.execute(sql`
    insert into calendar_events (facility_id, topic_id, training_id, label, color, all_day, starts_at, ends_at)
    select ${facility}, t.topic_id, t.id, 'Kurs ' || g, '#1c7ed6', false,
      now() - make_interval(days => g * 3), now() - make_interval(days => g * 3) + interval '1 hour'
    from generate_series(1, 12) g cross join lateral (select id, topic_id from trainings where passive limit 1) t`);
  await db.execute(sql`
    insert into calendar_invitees (event_id, user_id)
    select e.id, l.id from calendar_events e cross join lateral (${learners} order by random() limit 20) l`);
  await db.execute(sql`
    insert into wiki_confirmations (page_id, user_id, revision, confirmed_at)
    select p.id, u.id, p.released_revision, now()
    from wiki_pages p cross join users u
    where p.requires_confirmation and p.released_revision is not null and u.facility_id = ${facility}
      and u.id % 2 = 0`);
  await db.execute(sql`vacuum analyze`);
  return dataset.users.toString();
}

/** The administrator's start page, sequential requests (the server's time without queueing). Target: under 100 ms. */
export async function benchStaffHome(label: string, port: number, env: Record<string, string>): Promise<void> {
  const server = await startServer(port, { ...env, NOTIFICATION_JOB: "false" });
  try {
    const base = `http://127.0.0.1:${port}`;
    // dataset.ts: the first person of each facility is its administrator.
    const page = await timeGets(`${base}/api/home/staff`, await loginAs(base, "bench-1-1"));
    const body = JSON.parse(page.body) as {
      due: { total: number };
      help: { requests: number };
      attendance: { total: number };
    };
    console.log(`\n${label}: staff start page (demo content, one facility of ${USERS} people)`);
    console.log(
      `  administrator (${body.due.total} trainings due, ${body.help.requests} help requests, ${body.attendance.total} events waiting): ${page.text}`,
    );
  } finally {
    await stopServer(server);
  }
}
