import {
  AUDIT_PAGE_SIZE,
  type AuditEntry,
  type AuditKind,
  type AuditPage,
  type AuditVerification,
  DEFAULT_LANGUAGE,
  ErrorCode,
  type Language,
  startOfDay,
  startOfDayAfter,
} from "@carecampus/contract";
import br from "@carecampus/web/locales/br.json";
import de from "@carecampus/web/locales/de.json";
import en from "@carecampus/web/locales/en.json";
import es from "@carecampus/web/locales/es.json";
import fr from "@carecampus/web/locales/fr.json";
import { and, desc, eq, gte, lt, or, type SQL, sql } from "drizzle-orm";
import { type Actor, assertMay, facilityScope } from "../access/policy";
import type { Db } from "../db/client";
import { auditLog, facilities } from "../db/schema";
import { AppError } from "../errors";
import { csvField } from "../http/csv";
import { verifyAuditChain } from "./record";

/*
 * Reading the audit trail (issue 28, decision 21): GET /audit pages through it newest first,
 * GET /audit?format=csv gives every matching entry as a file, GET /audit/verify recomputes the
 * hash chain. Superusers see everything, administrators the entries of their facility.
 */

export interface AuditFilter {
  user?: number | undefined;
  kind?: AuditKind | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** A day YYYY-MM-DD as the first instant of it in `zone`; 400 for a day that does not exist. */
function dayStart(day: string, zone: string, field: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const at = startOfDay(zone, y, m, d);
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) {
    throw new AppError(ErrorCode.validation, `${field}: not a calendar day`);
  }
  return at;
}

/** The entries the actor may read that match the filter, as one condition. */
function visible(actor: Actor, filter: AuditFilter, zone: string): SQL | undefined {
  assertMay(actor, "audit.read");
  const scope = facilityScope(actor);
  const from = filter.from ? dayStart(filter.from, zone, "from") : undefined;
  const to = filter.to ? startOfDayAfter(dayStart(filter.to, zone, "to"), 1, zone) : undefined;
  if (from && to && from >= to) throw new AppError(ErrorCode.validation, "from: must not be after to");
  return and(
    scope === "all" ? undefined : eq(auditLog.facilityId, scope ?? -1),
    filter.user === undefined ? undefined : or(eq(auditLog.actorId, filter.user), eq(auditLog.subjectId, filter.user)),
    filter.kind === undefined ? undefined : eq(auditLog.kind, filter.kind),
    from ? gte(auditLog.at, from) : undefined,
    to ? lt(auditLog.at, to) : undefined,
  );
}

const COLUMNS = {
  id: auditLog.id,
  at: auditLog.at,
  kind: auditLog.kind,
  actorId: auditLog.actorId,
  actorRole: auditLog.actorRole,
  facilityId: auditLog.facilityId,
  facilityName: facilities.name,
  subjectId: auditLog.subjectId,
  data: auditLog.data,
  personal: auditLog.personal,
  hash: auditLog.hash,
};
type Row = Awaited<ReturnType<typeof select>>[number];

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** One entry as the API shows it: names from the unhashed part, changed personal values beside the data. */
function toEntry(row: Row): AuditEntry {
  const personal = row.personal ?? {};
  const { actor: _actor, subject: _subject, ...changedPersonal } = personal;
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    kind: row.kind as AuditKind,
    actor: { id: row.actorId, role: row.actorRole, name: text(personal.actor) },
    facility: row.facilityId === null ? null : { id: row.facilityId, name: row.facilityName ?? null },
    subject: row.subjectId === null ? null : { id: row.subjectId, name: text(personal.subject) },
    data: Object.keys(changedPersonal).length > 0 ? { ...row.data, personal: changedPersonal } : row.data,
  };
}

function select(db: Db, where: SQL | undefined) {
  return db
    .select(COLUMNS)
    .from(auditLog)
    .leftJoin(facilities, eq(facilities.id, auditLog.facilityId))
    .where(where)
    .orderBy(desc(auditLog.id));
}

/** GET /audit: one page, newest first (ids follow the chain, so the newest has the highest). */
export async function listAudit(db: Db, actor: Actor, filter: AuditFilter & { page: number }, zone: string) {
  const where = visible(actor, filter, zone);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(where);
  const rows = await select(db, where)
    .limit(AUDIT_PAGE_SIZE)
    .offset((filter.page - 1) * AUDIT_PAGE_SIZE);
  return {
    entries: rows.map(toEntry),
    total: count?.n ?? 0,
    page: filter.page,
    page_size: AUDIT_PAGE_SIZE,
  } satisfies AuditPage;
}

/* ---------- CSV ---------- */

type CsvTexts = typeof de.audit.csv;
type KindNames = typeof de.audit.kind;
const LOCALES: Record<Language, { csv: CsvTexts; kind: KindNames }> = {
  de: de.audit,
  en: en.audit,
  fr: fr.audit,
  es: es.audit,
  br: br.audit,
};

/** At most this many entries in one file: the trail of years of a large installation stays a file a spreadsheet opens. */
export const AUDIT_CSV_MAX_ROWS = 100_000;

/**
 * GET /audit?format=csv: every matching entry, newest first, in the reader's language: UTF-8
 * with a BOM and semicolons, as German spreadsheets open it; the time in the installation's zone.
 */
export async function exportAuditCsv(
  db: Db,
  actor: Actor,
  filter: AuditFilter,
  zone: string,
): Promise<{ csv: string; filename: string }> {
  const where = visible(actor, filter, zone);
  const rows = await select(db, where).limit(AUDIT_CSV_MAX_ROWS);
  const t = LOCALES[actor.language] ?? LOCALES[DEFAULT_LANGUAGE];
  const time = new Intl.DateTimeFormat("sv-SE", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const header = [
    t.csv.id,
    t.csv.time,
    t.csv.kind,
    t.csv.actorId,
    t.csv.actor,
    t.csv.role,
    t.csv.facility,
    t.csv.subjectId,
    t.csv.subject,
    t.csv.details,
    t.csv.hash,
  ];
  const lines = rows.map((row) => {
    const e = toEntry(row);
    return [
      e.id,
      time.format(new Date(e.at)),
      t.kind[e.kind] ?? e.kind,
      e.actor.id,
      e.actor.name,
      e.actor.role,
      e.facility?.name ?? null,
      e.subject?.id,
      e.subject?.name,
      JSON.stringify(e.data),
      row.hash,
    ]
      .map(csvField)
      .join(";");
  });
  const csv = `\uFEFF${[header.map(csvField).join(";"), ...lines].join("\r\n")}\r\n`;
  return { csv, filename: `${t.csv.filename}.csv` };
}

/** GET /audit/verify: superusers only. */
export async function verifyAudit(db: Db, actor: Actor): Promise<AuditVerification> {
  assertMay(actor, "audit.verify");
  const result = await verifyAuditChain(db);
  return { intact: result.intact, entries: result.entries, first_broken: result.firstBroken };
}
