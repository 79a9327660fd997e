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
    insert into users (login, name, surname, facility_id, password_hash)
    select 'ov-' || g, 'Vorname' || g, 'Nachname' || lpad(g::text, 5, '0'),
      (select id from f where f.n = case when g <= ${BIG_FACILITY_USERS}::int then 1 else 2 + (g % ${FACILITIES - 1}::int) end),
      ${hash}
    from generate_series(1, ${USERS}::int) g`);
  await db.execute(
    sql`insert into user_roles (user_id, role) select id, 'employee' from users where login like 'ov-%'`,
  );
  await db.execute(sql`insert into preferences (user_id) select id from users where login like 'ov-%'`);
  await db.execute(
    sql`insert into users (login, name, surname, password_hash) values (${SUPERUSER}, 'Bench', 'Superuser', ${hash})`,
  );
  await db.execute(
    sql`insert into user_roles (user_id, role) select id, 'superchris' from users where login = ${SUPERUSER}`,
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

/**
 * Starts a server on the prepared database and measures the overview of the 2 000-learner
 * facility for one topic (sequential requests: server time without queueing) and the xlsx
 * of all 10 000 learners (time to the last byte, the server's peak RSS).
 */
export async function benchOverview(label: string, port: number, env: Record<string, string>): Promise<void> {
  // The expiry job would catch up on 600 000 certificates right after the start and be measured with the export.
  const server = await startServer(port, { ...env, NOTIFICATION_JOB: "false" });
  try {
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: SUPERUSER, password: BENCH_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
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
    const times: number[] = [];
    const serverTimes: number[] = [];
    let bytes = 0;
    let learners = 0;
    for (let i = 0; i < 23; i++) {
      const begun = performance.now();
      const answer = await fetch(url, { headers: auth });
      const body = await answer.text();
      if (!answer.ok) throw new Error(`overview failed: ${answer.status} ${body.slice(0, 200)}`);
      // The first three warm caches and the JIT.
      if (i >= 3) {
        times.push(performance.now() - begun);
        serverTimes.push(Number(/dur=([\d.]+)/.exec(answer.headers.get("server-timing") ?? "")?.[1]));
      }
      bytes = body.length;
      learners = (JSON.parse(body) as { users: unknown[] }).users.length;
    }
    console.log(`\n${label}: progress overview (${USERS} learners, ${TOPICS * TRAININGS_PER_TOPIC} trainings)`);
    console.log(
      `  overview, 1 topic, ${learners} learners of one facility: server time p50 ${percentile(serverTimes, 50).toFixed(0)} ms, p95 ${percentile(serverTimes, 95).toFixed(0)} ms; at the client p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms (${(bytes / 1024).toFixed(0)} KB JSON, 20 sequential requests)`,
    );
    console.log(
      `  xlsx of all learners, ${TOPICS} topic sheets: ${(xlsxMs / 1000).toFixed(2)} s, ${(workbook.length / 1024 / 1024).toFixed(1)} MB; server peak RSS ${rssBefore.toFixed(0)} MB after start, ${rssAfter.toFixed(0)} MB after the export`,
    );
  } finally {
    await stopServer(server);
  }
}
