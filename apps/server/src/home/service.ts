import {
  can,
  expiryBoundaries,
  STAFF_HOME_ROWS,
  type StaffHome,
  type StaffHomeEvent,
  type StaffHomePage,
  type StaffHomeTraining,
} from "@carecampus/contract";
import { type SQL, sql } from "drizzle-orm";
import { type Actor, assertMay, facilityScope } from "../access/policy";
import { type Db, runAll, selectRows } from "../db/client";
import type { WikiText } from "../db/schema";
import { listHelpRequests } from "../help/service";
import { textIn } from "../wiki/pages";

/*
 * The staff start page (issue 30 "A home for staff"): what needs doing in the actor's
 * facilities, read with a handful of set-based statements whatever the number of people.
 */

/** `column` lies in the actor's facilities: all, their own, or none. */
function inScope(actor: Actor, column: SQL): SQL {
  const scope = facilityScope(actor);
  if (scope === "all") return sql`true`;
  return scope === null ? sql`false` : sql`${column} = ${scope}`;
}

const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

interface TrainingCount {
  facility_id: number;
  facility: string;
  topic_id: number;
  topic: string;
  training_id: number;
  training: string;
  passive: boolean;
  red: number;
  orange: number;
  yellow: number;
}

/**
 * Per facility and current training: how many of its learners (current employees the training
 * is assigned to, decision 6) are red, orange or yellow today by their newest certificate that
 * counts — the overview's rule, counted in the database with the colour boundaries of
 * expiryBoundaries. Only pairs with someone not green. Whoever holds no certificate is red:
 * the learners assigned a training less those whose newest certificate is orange or better.
 */
async function trainingCounts(db: Db, actor: Actor, now: Date, zone: string): Promise<TrainingCount[]> {
  const { orangeFrom, yellowFrom, greenFrom } = expiryBoundaries(now, zone);
  // 0 red, 1 orange, 2 yellow, 3 green.
  const colour = sql`case when c."expires_at" < ${at(orangeFrom)} then 0 when c."expires_at" < ${at(yellowFrom)} then 1
    when c."expires_at" < ${at(greenFrom)} then 2 else 3 end`;
  return selectRows<TrainingCount>(
    db,
    sql`with l as (
          select u."id", u."facility_id", m."user_id" is not null as has_matrix
          from "users" u
          join "user_roles" ur on ur."user_id" = u."id" and ur."role" = 'employee'
          left join "training_matrices" m on m."user_id" = u."id"
          where u."archived_at" is null and u."facility_id" is not null and ${inScope(actor, sql`u."facility_id"`)}
        ),
        t as (
          select t."id" from "trainings" t join "topics" p on p."id" = t."topic_id"
          where not t."retired" and not p."retired"
        ),
        newest as (
          select distinct on (c."user_id", c."training_id") c."user_id", c."training_id", ${colour} as colour
          from "certificates" c join l on l."id" = c."user_id"
          where c."revoked_at" is null
          order by c."user_id", c."training_id", c."acquired_at" desc, c."id" desc
        ),
        held as (
          select l."facility_id", n."training_id",
            count(*) filter (where n.colour > 0)::int as not_red,
            count(*) filter (where n.colour = 1)::int as orange,
            count(*) filter (where n.colour = 2)::int as yellow
          from newest n join l on l."id" = n."user_id" join t on t."id" = n."training_id"
          where not l.has_matrix or exists (select 1 from "training_matrix_entries" e
            where e."user_id" = n."user_id" and e."training_id" = n."training_id")
          group by l."facility_id", n."training_id"
        ),
        assigned as (
          select x."facility_id", t."id" as training_id, x.n
          from (select l."facility_id", count(*)::int as n from l where not l.has_matrix group by l."facility_id") x
          cross join t
          union all
          select l."facility_id", e."training_id", count(*)::int
          from l join "training_matrix_entries" e on e."user_id" = l."id" join t on t."id" = e."training_id"
          where l.has_matrix
          group by l."facility_id", e."training_id"
        ),
        counted as (
          select a."facility_id", a.training_id, sum(a.n)::int - coalesce(max(h.not_red), 0) as red,
            coalesce(max(h.orange), 0) as orange, coalesce(max(h.yellow), 0) as yellow
          from assigned a
          left join held h on h."facility_id" = a."facility_id" and h."training_id" = a.training_id
          group by a."facility_id", a.training_id
        )
        select c."facility_id", f."name" as facility, p."id" as topic_id, p."name" as topic,
          t."id" as training_id, t."name" as training, t."passive", c.red, c.orange, c.yellow
        from counted c
        join "facilities" f on f."id" = c."facility_id"
        join "trainings" t on t."id" = c.training_id
        join "topics" p on p."id" = t."topic_id"
        where c.red + c.orange + c.yellow > 0`,
  );
}

function toTraining(r: TrainingCount): StaffHomeTraining {
  return {
    facility: { id: r.facility_id, name: r.facility },
    topic: { id: r.topic_id, name: r.topic },
    training: { id: r.training_id, name: r.training, passive: r.passive },
    red: r.red,
    orange: r.orange,
    yellow: r.yellow,
  };
}

const collator = new Intl.Collator("de", { sensitivity: "base", numeric: true });
const byName = (a: TrainingCount, b: TrainingCount) =>
  collator.compare(a.facility, b.facility) || collator.compare(a.training, b.training) || a.training_id - b.training_id;

/** The `total` rows and the first STAFF_HOME_ROWS of them. */
function part<T>(rows: T[], total = rows.length) {
  return { total, rows: rows.slice(0, STAFF_HOME_ROWS) };
}

/** Events in scope that have ended with an invitee whose attendance is not recorded, the newest first. */
async function waitingAttendance(db: Db, actor: Actor, now: Date) {
  const rows = await selectRows<{
    id: number;
    label: string;
    facility_id: number;
    facility: string;
    starts_at: string | Date;
    all_day: boolean;
    invitees: number;
    total: number;
  }>(
    db,
    sql`select e."id", coalesce(nullif(e."label", ''), t."name") as label, e."facility_id", f."name" as facility,
          e."starts_at", e."all_day",
          (select count(*)::int from "calendar_invitees" ci where ci."event_id" = e."id") as invitees,
          count(*) over ()::int as total
        from "calendar_events" e
        join "facilities" f on f."id" = e."facility_id"
        join "trainings" t on t."id" = e."training_id"
        where e."ends_at" <= ${at(now.getTime())} and ${inScope(actor, sql`e."facility_id"`)}
          and exists (select 1 from "calendar_invitees" ci where ci."event_id" = e."id" and ci."attended" is null)
        order by e."starts_at" desc, e."id" desc
        limit ${STAFF_HOME_ROWS}`,
  );
  const events: StaffHomeEvent[] = rows.map((r) => ({
    id: r.id,
    label: r.label,
    facility: { id: r.facility_id, name: r.facility },
    starts_at: new Date(r.starts_at).toISOString(),
    all_day: r.all_day,
    invitees: r.invitees,
  }));
  return part(events, rows[0]?.total ?? 0);
}

/**
 * QM pages asking for a read confirmation whose released version not every current member of a
 * facility in scope has confirmed (a common page asks every facility; a facility's page its
 * own), the smallest share confirmed first. The wiki's confirmation list counts the same way.
 */
async function incompleteConfirmations(db: Db, actor: Actor) {
  const rows = await selectRows<{
    page_id: number;
    slug: string;
    topic_key: string;
    content: Record<string, WikiText> | null;
    facility_id: number;
    facility: string;
    confirmed: number;
    members: number;
    total: number;
  }>(
    db,
    sql`with pf as (
          select p."id" as page_id, p."released_revision" as revision, f."id" as facility_id
          from "wiki_pages" p
          join "facilities" f on p."facility_id" is null or p."facility_id" = f."id"
          where p."requires_confirmation" and p."released_revision" is not null and not p."retired"
            and ${inScope(actor, sql`f."id"`)}
        ),
        members as (
          select u."facility_id", count(*)::int as n from "users" u
          where u."archived_at" is null and u."facility_id" is not null and ${inScope(actor, sql`u."facility_id"`)}
          group by u."facility_id"
        ),
        confirmed as (
          select pf.page_id, pf.facility_id, count(*)::int as n
          from pf
          join "wiki_confirmations" c on c."page_id" = pf.page_id and c."revision" = pf.revision
          join "users" u on u."id" = c."user_id" and u."facility_id" = pf.facility_id and u."archived_at" is null
          group by pf.page_id, pf.facility_id
        ),
        open as (
          select pf.page_id, pf.revision, pf.facility_id, coalesce(c.n, 0) as confirmed, m.n as members,
            count(*) over ()::int as total
          from pf
          join members m on m."facility_id" = pf.facility_id
          left join confirmed c on c.page_id = pf.page_id and c.facility_id = pf.facility_id
          where coalesce(c.n, 0) < m.n
          order by coalesce(c.n, 0)::float8 / m.n, pf.page_id, pf.facility_id
          limit ${STAFF_HOME_ROWS}
        )
        select o.page_id, p."slug", wt."key" as topic_key, r."content", o.facility_id, f."name" as facility,
          o.confirmed, o.members, o.total
        from open o
        join "wiki_pages" p on p."id" = o.page_id
        join "wiki_topics" wt on wt."id" = p."topic_id"
        join "facilities" f on f."id" = o.facility_id
        left join "wiki_revisions" r on r."page_id" = o.page_id and r."number" = o.revision
        order by o.confirmed::float8 / o.members, o.page_id, o.facility_id`,
  );
  const pages: StaffHomePage[] = rows.map((r) => {
    return {
      page_id: r.page_id,
      title: r.content ? textIn(r.content, actor.language).text.title : r.slug,
      topic_key: r.topic_key,
      slug: r.slug,
      facility: { id: r.facility_id, name: r.facility },
      confirmed: r.confirmed,
      total: r.members,
    };
  });
  return part(pages, rows[0]?.total ?? 0);
}

const none = { total: 0, rows: [] };

/** GET /home/staff: each part the actor's role may see, within their facilities. */
export async function staffHome(db: Db, actor: Actor, now: Date, zone: string): Promise<StaffHome> {
  assertMay(actor, "home.staff");
  const may = (action: Parameters<typeof can>[1]) => can(actor.roles, action);
  const [counts, help, attendance, confirmations] = await runAll(db, [
    () => (may("overview.read") ? trainingCounts(db, actor, now, zone) : Promise.resolve([])),
    () => (may("help.read") ? listHelpRequests(db, actor, undefined) : Promise.resolve([])),
    () => (may("calendar.plan") ? waitingAttendance(db, actor, now) : Promise.resolve(none)),
    () => (may("wiki.confirmations") ? incompleteConfirmations(db, actor) : Promise.resolve(none)),
  ] as const);
  const due = counts
    .filter((r) => r.red + r.orange > 0)
    .sort((a, b) => b.red + b.orange - (a.red + a.orange) || b.red - a.red || byName(a, b));
  const expiring = counts.filter((r) => r.yellow > 0).sort((a, b) => b.yellow - a.yellow || byName(a, b));
  return {
    due: part(due.map(toTraining)),
    expiring: part(expiring.map(toTraining)),
    help: { ...part(help), requests: help.reduce((sum, h) => sum + h.count, 0) },
    attendance,
    confirmations,
  };
}
