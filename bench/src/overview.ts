import fs from "node:fs";
import { sql } from "drizzle-orm";
import type { Db } from "../../apps/server/src/db/client";
import { hashPassword } from "../../apps/server/src/security/passwords";
import { BENCH_PASSWORD } from "./dataset";
import { startServer, stopServer } from "./server";

const FACILITIES = 50;
const USERS = 10_000;
const BIG_FACILITY_USERS = 2_000;
const TOPICS = 10;
const TRAININGS_PER_TOPIC = 10;
/** Share of user × training pairs that hold a certificate (expired, expiring or valid). */
const DENSITY = Number(process.env.BENCH_CERTIFICATE_DENSITY ?? 0.6);
const SUPERUSER = "ov-superchris";
/** The administrator of the 2 000-learner facility: their staff start page (issue 30). */
const ADMINISTRATOR = "ov-admin";
const BIG_FACILITY = "Overview-Haus 1";

/**
 * The progress-overview dataset of issue 5, written with set-based SQL: 50 facilities (one of
 * 2 000 learners, 8 000 spread over the rest), 10 topics × 10 trainings, certificates for
 * DENSITY of all pairs with expiries from 60 days ago to 400 days ahead.
 */
export async function generateOverviewDataset(db: Db): Promise<{ certificates: number }> {
  const hash = await hashPassword(BENCH_PASSWORD);
  await db.execute(
    sql`insert into facilities (name) select 'Overview-Haus ' || g from generate_series(1, ${FACILITIES}::int) g`,
  );
  await db.execute(sql`
    with f as (select id, row_number() over (order by id) as n from facilities where name like 'Overview-Haus %')
    insert into users (login, login_key, name, surname, facility_id, password_hash)
    select 'ov-' || g, 'ov-' || g, 'Vorname' || g, 'Nachname' || lpad(g::text, 5, '0'),
      (select id from f where f.n = case when g <= ${BIG_FACILITY_USERS}::int then 1 else 2 + (g % ${FACILITIES - 1}::int) end),
      ${hash}
    from generate_series(1, ${USERS}::int) g`);
  await db.execute(
    sql`insert into user_roles (user_id, role) select id, 'employee' from users where login like 'ov-%'`,
  );
  await db.execute(sql`insert into preferences (user_id) select id from users where login like 'ov-%'`);
  await db.execute(
    sql`insert into users (login, login_key, name, surname, password_hash) values (${SUPERUSER}, ${SUPERUSER}, 'Bench', 'Superuser', ${hash})`,
  );
  await db.execute(
    sql`insert into user_roles (user_id, role) select id, 'superchris' from users where login = ${SUPERUSER}`,
  );
  await db.execute(sql`
    insert into users (login, login_key, name, surname, facility_id, password_hash)
    select ${ADMINISTRATOR}, ${ADMINISTRATOR}, 'Bench', 'Administrator', id, ${hash} from facilities where name = ${BIG_FACILITY}`);
  await db.execute(
    sql`insert into user_roles (user_id, role) select id, 'administrator' from users where login = ${ADMINISTRATOR}`,
  );
  await db.execute(sql`
    insert into topics (key, name, icon, color, position)
    select 'ov-topic-' || g, 'Thema ' || g, 'hygiene', '#0f766e', 100 + g from generate_series(1, ${TOPICS}::int) g`);
  await db.execute(sql`
    insert into trainings (key, topic_id, name, icon, validity_months, points, passive)
    select 'ov-training-' || t.position || '-' || g, t.id, 'Schulung ' || (t.position - 100) || '.' || g, 'hygiene', 12, 10, g = 1
    from topics t cross join generate_series(1, ${TRAININGS_PER_TOPIC}::int) g where t.key like 'ov-topic-%'`);
  await db.execute(sql`
    insert into certificates (user_id, training_id, acquired_at, expires_at, points, verification_code)
    select u.id, t.id, now() - interval '300 days', now() + make_interval(days => (random() * 460)::int - 60), 10,
      'OV' || u.id || '-' || t.id
    from users u cross join trainings t
    where u.login like 'ov-%' and u.facility_id is not null and t.key like 'ov-training-%' and random() < ${DENSITY}::float8`);
  // Exactly the 100 trainings: the demo content (imported first, so that the server's
  // start finds its content current and leaves these topics alone) is retired.
  await db.execute(sql`update trainings set retired = true where key not like 'ov-training-%'`);
  await db.execute(sql`update topics set retired = true where key not like 'ov-topic-%'`);
  // As autovacuum would have by the time anyone looks: statistics and the visibility map.
  await db.execute(sql`vacuum analyze`);
  const rows = await db.execute(sql`select count(*)::int as n from certificates where verification_code like 'OV%'`);
  const count = (rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
  return { certificates: count };
}

function peakRssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/** Server and client times of `count` sequential GETs of `url` after three to warm up. */
export async function timeGets(url: string, headers: Record<string, string>, count = 20) {
  const times: number[] = [];
  const serverTimes: number[] = [];
  let body = "";
  for (let i = 0; i < count + 3; i++) {
    const begun = performance.now();
    const answer = await fetch(url, { headers });
    body = await answer.text();
    if (!answer.ok) throw new Error(`${url} failed: ${answer.status} ${body.slice(0, 200)}`);
    if (i >= 3) {
      times.push(performance.now() - begun);
      serverTimes.push(Number(/dur=([\d.]+)/.exec(answer.headers.get("server-timing") ?? "")?.[1]));
    }
  }
  const ms = (values: number[], p: number) => percentile(values, p).toFixed(0);
  return {
    body,
    text: `server time p50 ${ms(serverTimes, 50)} ms, p95 ${ms(serverTimes, 95)} ms; at the client p50 ${ms(times, 50)} ms, p95 ${ms(times, 95)} ms (${(body.length / 1024).toFixed(0)} KB JSON, ${count} sequential requests)`,
  };
}

export async function loginAs(base: string, login: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login, password: BENCH_PASSWORD }),
  });
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

/**
 * Starts a server on the prepared database and measures the overview of the 2 000-learner
 * facility for one topic (sequential requests: server time without queueing) and the xlsx
 * of all 10 000 learners (time to the last byte, the server's peak RSS), and the staff start
 * page of that facility's administrator and of the superuser.
 */
export async function benchOverview(label: string, port: number, env: Record<string, string>): Promise<void> {
  // The expiry job would catch up on 600 000 certificates right after the start and be measured with the export.
  const server = await startServer(port, { ...env, NOTIFICATION_JOB: "false" });
  try {
    const base = `http://127.0.0.1:${port}`;
    const auth = await loginAs(base, SUPERUSER);
    const token = String(auth.authorization).slice("Bearer ".length);
    const topics = (await (await fetch(`${base}/api/filter/list/topics`, { headers: auth })).json()) as {
      id: number;
      name: string;
    }[];
    const topic = topics.find((t) => t.name === "Thema 1");
    if (!topic) throw new Error("overview dataset missing");
    // The workbook first, on a fresh server: its peak RSS is the export's, not the JSON calls'.
    const rssBefore = peakRssMb(server.pid);
    const started = performance.now();
    const res = await fetch(`${base}/api/progress/admin/export/xlsx?token=${encodeURIComponent(token)}`);
    const workbook = Buffer.from(await res.arrayBuffer());
    const xlsxMs = performance.now() - started;
    if (!res.ok) throw new Error(`xlsx failed: ${res.status}`);
    const rssAfter = peakRssMb(server.pid);

    const url = `${base}/api/progress/admin/topics/${topic.id}?facilityName=${encodeURIComponent(BIG_FACILITY)}`;
    const overview = await timeGets(url, auth);
    const learners = (JSON.parse(overview.body) as { users: unknown[] }).users.length;
    console.log(`\n${label}: progress overview (${USERS} learners, ${TOPICS * TRAININGS_PER_TOPIC} trainings)`);
    console.log(`  overview, 1 topic, ${learners} learners of one facility: ${overview.text}`);
    // The staff start page (issue 30): every training of the facility counted, target under 100 ms.
    const admin = await timeGets(`${base}/api/home/staff`, await loginAs(base, ADMINISTRATOR));
    const due = (JSON.parse(admin.body) as { due: { total: number } }).due.total;
    console.log(
      `  staff start page, administrator of the ${BIG_FACILITY_USERS}-learner facility (${due} trainings due): ${admin.text}`,
    );
    const all = await timeGets(`${base}/api/home/staff`, auth);
    console.log(`  staff start page, superuser over all ${USERS} learners: ${all.text}`);
    console.log(
      `  xlsx of all learners, ${TOPICS} topic sheets: ${(xlsxMs / 1000).toFixed(2)} s, ${(workbook.length / 1024 / 1024).toFixed(1)} MB; server peak RSS ${rssBefore.toFixed(0)} MB after start, ${rssAfter.toFixed(0)} MB after the export`,
    );
  } finally {
    await stopServer(server);
  }
}
