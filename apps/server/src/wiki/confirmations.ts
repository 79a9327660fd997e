import {
  contentLanguageTag,
  ErrorCode,
  type Language,
  languageTag,
  NotificationMessageKey,
  personName,
  WIKI_CONFIRMATION_COLOURS,
  type WikiConfirmationRow,
  type WikiConfirmationState,
  type WikiConfirmations,
  type WikiPage,
} from "@carecampus/contract";
import { and, asc, eq } from "drizzle-orm";
import { type Actor, assertMay } from "../access/policy";
import { currentMember } from "../access/scope";
import type { Db } from "../db/client";
import { facilities, users, wikiConfirmations, wikiTopics } from "../db/schema";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { createNotifications } from "../notifications/service";
import { safeText } from "../overview/xlsx";
import {
  confirmationAsked,
  facilityInView,
  loadRevision,
  type PageRow,
  pageForRead,
  pageView,
  readableLanguagesOf,
  readerTextIn,
  readingLanguage,
} from "./pages";

/** POST /wiki/pages/{id}/confirm: the caller has read the released revision. */
export async function confirmPage(
  deps: DbClock,
  actor: Actor,
  id: number,
  revision: number,
  asked: string | undefined,
): Promise<WikiPage> {
  const page = await pageForRead(deps.db, actor, id);
  if (!confirmationAsked(actor, page)) {
    throw new AppError(ErrorCode.validation, "This page asks you for no confirmation");
  }
  if (revision !== page.releasedRevision) {
    throw new AppError(ErrorCode.conflict, "A newer version of this page was released: read it, then confirm");
  }
  // The language read: one the released revision has (a translation counts; German is binding).
  const content = (await loadRevision(deps.db, id, revision))?.content ?? {};
  const lang = asked ?? readerTextIn(content, await readingLanguage(deps.db, actor)).lang;
  if (!readableLanguagesOf(content).includes(lang)) {
    throw new AppError(
      ErrorCode.validation,
      `lang: revision ${revision} of this page has no "${lang}" text a reader is shown (it has ${readableLanguagesOf(content).join(", ")})`,
    );
  }
  await deps.db
    .insert(wikiConfirmations)
    .values({ pageId: id, userId: actor.id, revision, confirmedAt: deps.now(), lang })
    .onConflictDoNothing();
  return pageView(deps.db, actor, page, {});
}

interface Listing {
  page: PageRow;
  title: string;
  topicKey: string;
  facility: { id: number; name: string };
  rows: WikiConfirmationRow[];
}

/** Everyone of the facility with their state for the page's released revision, the missing first. */
async function listing(db: Db, actor: Actor, id: number, asked: number | undefined): Promise<Listing> {
  const page = await pageForRead(db, actor, id);
  const inView = page.facilityId ?? (await facilityInView(db, actor, asked));
  if (inView === null) {
    throw new AppError(ErrorCode.facilityRequired, "Choose the facility whose confirmations you want to see");
  }
  if (page.facilityId !== null && asked !== undefined && asked !== page.facilityId) {
    throw new AppError(ErrorCode.notFound, "Wiki page not found");
  }
  assertMay(actor, "wiki.confirmations");
  assertMay(actor, "wiki.confirmations", { facilityId: inView });
  const [facility] = await db.select().from(facilities).where(eq(facilities.id, inView));
  if (!facility) throw new AppError(ErrorCode.facilityNotFound, "Facility not found");
  const [topic] = await db.select().from(wikiTopics).where(eq(wikiTopics.id, page.topicId));
  const revision = page.releasedRevision === null ? undefined : await loadRevision(db, id, page.releasedRevision);
  const title = revision ? readerTextIn(revision.content, actor.language).text.title : page.slug;

  const people = await db
    .select({ id: users.id, name: users.name, surname: users.surname, login: users.login })
    .from(users)
    // Current members: a former employee's confirmation is kept, but they are no longer asked for one.
    .where(and(eq(users.facilityId, inView), currentMember))
    .orderBy(asc(users.surname), asc(users.name), asc(users.id));
  const confirmations = await db
    .select({
      userId: wikiConfirmations.userId,
      revision: wikiConfirmations.revision,
      at: wikiConfirmations.confirmedAt,
      lang: wikiConfirmations.lang,
    })
    .from(wikiConfirmations)
    .where(eq(wikiConfirmations.pageId, id));
  const newest = new Map<number, { revision: number; at: Date; lang: string | null }>();
  for (const c of confirmations) {
    const seen = newest.get(c.userId);
    if (!seen || c.revision > seen.revision) newest.set(c.userId, c);
  }
  const order: Record<WikiConfirmationState, number> = { missing: 0, outdated: 1, confirmed: 2 };
  const rows = people
    .map((p): WikiConfirmationRow => {
      const c = newest.get(p.id);
      const state: WikiConfirmationState =
        c && c.revision === page.releasedRevision ? "confirmed" : c ? "outdated" : "missing";
      return {
        user_id: p.id,
        name: p.name,
        surname: p.surname,
        login: p.login,
        state,
        revision: c?.revision ?? null,
        confirmed_at: c?.at.toISOString() ?? null,
        lang: c?.lang ?? null,
      };
    })
    .sort((a, b) => order[a.state] - order[b.state]);
  return { page, title, topicKey: topic?.key ?? "", facility: { id: facility.id, name: facility.name }, rows };
}

/** GET /wiki/pages/{id}/confirmations. */
export async function listConfirmations(
  db: Db,
  actor: Actor,
  id: number,
  asked: number | undefined,
): Promise<WikiConfirmations> {
  const { page, title, facility, rows } = await listing(db, actor, id, asked);
  return {
    page_id: page.id,
    title,
    facility,
    revision: page.releasedRevision,
    released_at: page.releasedAt?.toISOString() ?? null,
    confirmed: rows.filter((r) => r.state === "confirmed").length,
    total: rows.length,
    rows,
  };
}

/** POST /wiki/pages/{id}/confirmations/remind: a notification to everyone who has not confirmed. */
export async function remindMissing(
  deps: DbClock,
  actor: Actor,
  id: number,
  asked: number | undefined,
): Promise<{ reminded: number }> {
  const { page, title, topicKey, rows } = await listing(deps.db, actor, id, asked);
  if (!page.requiresConfirmation || page.releasedRevision === null) {
    throw new AppError(ErrorCode.validation, "This page asks for no confirmation");
  }
  const missing = rows.filter((r) => r.state !== "confirmed").map((r) => r.user_id);
  await createNotifications(deps.db, missing, "WIKI_CONFIRMATION_REMINDER", {
    key: NotificationMessageKey.wikiConfirmReminder,
    values: {
      title,
      topic: topicKey,
      slug: page.slug,
      revision: String(page.releasedRevision),
      by: personName(actor),
    },
  });
  return { reminded: missing.length };
}

const LABELS: Record<
  Language,
  {
    name: string;
    surname: string;
    login: string;
    state: string;
    revision: string;
    at: string;
    lang: string;
    states: Record<WikiConfirmationState, string>;
    sheet: string;
    page: string;
    facility: string;
    released: string;
  }
> = {
  de: {
    sheet: "Kenntnisnahme",
    page: "Seite",
    facility: "Einrichtung",
    released: "Freigegebene Fassung",
    surname: "Nachname",
    name: "Vorname",
    login: "Benutzername",
    state: "Stand",
    revision: "Bestätigte Fassung",
    at: "Bestätigt am",
    lang: "Gelesen auf",
    states: { confirmed: "bestätigt", outdated: "nur frühere Fassung", missing: "fehlt" },
  },
  en: {
    sheet: "Read confirmations",
    page: "Page",
    facility: "Facility",
    released: "Released version",
    surname: "Surname",
    name: "First name",
    login: "Username",
    state: "State",
    revision: "Confirmed version",
    at: "Confirmed on",
    lang: "Read in",
    states: { confirmed: "confirmed", outdated: "earlier version only", missing: "missing" },
  },
  fr: {
    sheet: "Prises de connaissance",
    page: "Page",
    facility: "Établissement",
    released: "Version publiée",
    surname: "Nom",
    name: "Prénom",
    login: "Identifiant",
    state: "État",
    revision: "Version confirmée",
    at: "Confirmé le",
    lang: "Lu en",
    states: { confirmed: "confirmé", outdated: "version antérieure seulement", missing: "manquant" },
  },
  es: {
    sheet: "Confirmaciones de lectura",
    page: "Página",
    facility: "Centro",
    released: "Versión publicada",
    surname: "Apellido",
    name: "Nombre",
    login: "Usuario",
    state: "Estado",
    revision: "Versión confirmada",
    at: "Confirmado el",
    lang: "Leído en",
    states: { confirmed: "confirmado", outdated: "solo una versión anterior", missing: "falta" },
  },
  br: {
    sheet: "Confirmações de leitura",
    page: "Página",
    facility: "Instituição",
    released: "Versão liberada",
    surname: "Sobrenome",
    name: "Nome",
    login: "Usuário",
    state: "Situação",
    revision: "Versão confirmada",
    at: "Confirmado em",
    lang: "Lido em",
    states: { confirmed: "confirmado", outdated: "só uma versão anterior", missing: "falta" },
  },
};

const FILL: Record<"green" | "orange" | "red", string> = { green: "FFB7E4C7", orange: "FFFDD0A2", red: "FFF8B4B4" };

/** GET /wiki/pages/{id}/confirmations/export: the list as an xlsx workbook (formula-safe text). */
export async function exportConfirmations(
  deps: DbClock,
  actor: Actor,
  id: number,
  asked: number | undefined,
): Promise<{ buffer: Buffer; filename: string }> {
  const { page, title, facility, rows } = await listing(deps.db, actor, id, asked);
  const { default: ExcelJS } = await import("exceljs");
  const l = LABELS[actor.language] ?? LABELS.de;
  // Dates as the facility reads them: in the configured time zone, as text (a spreadsheet has no zones).
  const stamp = new Intl.DateTimeFormat("de-DE", {
    timeZone: deps.zone,
    dateStyle: "medium",
    timeStyle: "short",
  });
  const when = (d: Date | string | null) => (d ? stamp.format(new Date(d)) : "");
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(l.sheet);
  sheet.addRow([l.page, safeText(title)]);
  sheet.addRow([l.facility, safeText(facility.name)]);
  sheet.addRow([l.released, page.releasedRevision ?? "", when(page.releasedAt)]);
  sheet.addRow([]);
  // The language read, in the reader's words ("Englisch"): a translation counts, German is binding.
  const names = new Intl.DisplayNames([languageTag(actor.language)], { type: "language" });
  const header = sheet.addRow([l.surname, l.name, l.login, l.state, l.revision, l.at, l.lang]);
  header.font = { bold: true };
  for (const r of rows) {
    const row = sheet.addRow([
      safeText(r.surname),
      safeText(r.name),
      safeText(r.login),
      l.states[r.state],
      r.revision ?? "",
      when(r.confirmed_at),
      r.lang ? (names.of(contentLanguageTag(r.lang)) ?? r.lang) : "",
    ]);
    row.getCell(4).fill = {
      type: "pattern",
      pattern: "solid",
      fgColor: { argb: FILL[WIKI_CONFIRMATION_COLOURS[r.state]] },
    };
  }
  for (const [i, width] of [22, 18, 18, 24, 18, 20, 18].entries()) sheet.getColumn(i + 1).width = width;
  sheet.views = [{ state: "frozen", ySplit: 5 }];
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: deps.zone }).format(deps.now());
  return { buffer, filename: `Kenntnisnahme-${page.slug}-${facility.name}-${day}.xlsx` };
}
