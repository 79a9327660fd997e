import { PassThrough } from "node:stream";
import { dayNumber, type ExpiryColour, expiryColourer, isoDay, type Language } from "@carecampus/contract";
import type ExcelJS from "exceljs";
import { NOT_ASSIGNED, type OverviewGrid } from "./grid";

/** Light fills in the four status colours of spec §4, readable with black text when printed. */
const FILLS: Record<ExpiryColour, string> = {
  red: "FFF8B4B4",
  orange: "FFFDD0A2",
  yellow: "FFFFF1A6",
  green: "FFB7E4C7",
};
const COLOURS: readonly ExpiryColour[] = ["red", "orange", "yellow", "green"];

interface Labels {
  surname: string;
  name: string;
  facility: string;
  legend: string;
  exported: string;
  scope: string;
  allFacilities: string;
  explain: Record<ExpiryColour, string>;
  cellNote: string;
}

/** The sheet texts in the reader's language (the app's five; German is the default). */
const LABELS: Record<Language, Labels> = {
  de: {
    surname: "Nachname",
    name: "Vorname",
    facility: "Einrichtung",
    legend: "Legende",
    exported: "Exportiert am",
    scope: "Einrichtung",
    allFacilities: "Alle Einrichtungen",
    explain: {
      red: "Rot: kein gültiges Zertifikat (abgelaufen oder nie erworben)",
      orange: "Orange: läuft in höchstens 7 Tagen ab",
      yellow: "Gelb: läuft in höchstens 30 Tagen ab",
      green: "Grün: gültig",
    },
    cellNote: "Die Zellen zeigen das Ablaufdatum des Zertifikats; leer = nicht erworben, grau = nicht zugewiesen.",
  },
  en: {
    surname: "Surname",
    name: "First name",
    facility: "Facility",
    legend: "Legend",
    exported: "Exported on",
    scope: "Facility",
    allFacilities: "All facilities",
    explain: {
      red: "Red: no valid certificate (expired or never acquired)",
      orange: "Orange: expires within 7 days",
      yellow: "Yellow: expires within 30 days",
      green: "Green: valid",
    },
    cellNote: "Cells show the certificate's expiry date; empty = not acquired, grey = not assigned.",
  },
  fr: {
    surname: "Nom",
    name: "Prénom",
    facility: "Établissement",
    legend: "Légende",
    exported: "Exporté le",
    scope: "Établissement",
    allFacilities: "Tous les établissements",
    explain: {
      red: "Rouge : aucun certificat valide (expiré ou jamais obtenu)",
      orange: "Orange : expire dans 7 jours au plus",
      yellow: "Jaune : expire dans 30 jours au plus",
      green: "Vert : valide",
    },
    cellNote: "Les cellules indiquent la date d’expiration du certificat ; vide = non obtenu, gris = non attribué.",
  },
  es: {
    surname: "Apellido",
    name: "Nombre",
    facility: "Centro",
    legend: "Leyenda",
    exported: "Exportado el",
    scope: "Centro",
    allFacilities: "Todos los centros",
    explain: {
      red: "Rojo: sin certificado válido (caducado o nunca obtenido)",
      orange: "Naranja: caduca en 7 días como máximo",
      yellow: "Amarillo: caduca en 30 días como máximo",
      green: "Verde: válido",
    },
    cellNote: "Las celdas muestran la fecha de caducidad del certificado; vacía = no obtenido, gris = no asignado.",
  },
  br: {
    surname: "Sobrenome",
    name: "Nome",
    facility: "Instituição",
    legend: "Legenda",
    exported: "Exportado em",
    scope: "Instituição",
    allFacilities: "Todas as instituições",
    explain: {
      red: "Vermelho: nenhum certificado válido (vencido ou nunca obtido)",
      orange: "Laranja: vence em até 7 dias",
      yellow: "Amarelo: vence em até 30 dias",
      green: "Verde: válido",
    },
    cellNote: "As células mostram a data de vencimento do certificado; vazia = não obtido, cinza = não atribuído.",
  },
};

/**
 * A text a spreadsheet could read as a formula (= + - @, tab, carriage return) gets a
 * leading apostrophe: no formula ever reaches the file, whatever a user named themselves.
 */
export function safeText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Every time zone's offset is a multiple of a quarter hour, so a quarter hour never spans two days. */
const QUARTER_HOUR_MS = 900_000;
/** Excel's serial day number of 1970-01-01 (its days count from 1899-12-30). */
const EXCEL_EPOCH_DAY = 25_569;

/**
 * Excel's serial day for an instant's calendar day in the configured time zone (a date without
 * a time, as the sheet shows it), computed once per quarter hour of the clock instead of a
 * calendar lookup for each of a million cells.
 */
function excelSerials(zone: string): (ms: number) => number {
  const byQuarter = new Map<number, number>();
  return (ms) => {
    const quarter = Math.floor(ms / QUARTER_HOUR_MS);
    let serial = byQuarter.get(quarter);
    if (serial === undefined) {
      serial = dayNumber(ms, zone) + EXCEL_EPOCH_DAY;
      byQuarter.set(quarter, serial);
    }
    return serial;
  };
}

/** Sheet names: at most 31 characters, none of []:*?/\, unique in the workbook. */
function sheetName(name: string, taken: Set<string>): string {
  const base =
    name
      .replace(/[[\]:*?/\\]/g, " ")
      .trim()
      .slice(0, 28) || "Sheet";
  let candidate = base;
  for (let i = 2; taken.has(candidate.toLowerCase()); i++) candidate = `${base} ${i}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

const fill = (argb: string): ExcelJS.Fill => ({ type: "pattern", pattern: "solid", fgColor: { argb } });

/**
 * One style object per look, shared by every cell that has it: ExcelJS caches styles by object
 * identity, so a million cells cost six style lookups instead of a million.
 */
const CELL_STYLES = {
  dated: Object.fromEntries(
    COLOURS.map((c) => [c, { fill: fill(FILLS[c]), numFmt: "dd.mm.yyyy" } as Partial<ExcelJS.Style>]),
  ) as Record<ExpiryColour, Partial<ExcelJS.Style>>,
  /** No certificate: red, without a date. */
  none: { fill: fill(FILLS.red) } as Partial<ExcelJS.Style>,
  unassigned: { fill: fill("FFE9ECEF") } as Partial<ExcelJS.Style>,
};
const PLAIN: Partial<ExcelJS.Style> = {};
/** Rows written between two turns of the event loop (a few milliseconds of work). */
const ROWS_PER_TURN = 250;
/** Sheet XML the zip may have waiting before the writer pauses. */
const MAX_PENDING_BYTES = 2 * 1024 * 1024;

/** What exceljs 4.4 keeps of a worksheet's stream: its 64 kB buffers and the zip entry it feeds. */
interface SheetStream {
  buffers?: unknown[];
  bufSize?: number;
  /** archiver's PassThrough (readable-stream 3, without writableLength) in front of deflate. */
  pipes?: { _writableState?: { length?: number }; _readableState?: { length?: number } }[];
}

/**
 * Waits until the zip has caught up with a sheet. exceljs's streaming writer hands every row to
 * the zip at once and ignores its backpressure, so a writer faster than deflate would pile the
 * whole workbook up in memory; pausing here keeps memory flat whatever the size.
 */
async function zipCaughtUp(sheet: ExcelJS.Worksheet): Promise<void> {
  const stream = (sheet as unknown as { stream?: SheetStream }).stream;
  const pending = () =>
    (stream?.buffers?.length ?? 0) * (stream?.bufSize ?? 0) +
    (stream?.pipes ?? []).reduce(
      (sum, pipe) => sum + (pipe._writableState?.length ?? 0) + (pipe._readableState?.length ?? 0),
      0,
    );
  while (pending() > MAX_PENDING_BYTES) await new Promise((resolve) => setTimeout(resolve, 2));
}

export interface ExportInput {
  language: Language;
  facilityName: string | undefined;
  now: Date;
  /** The configured time zone the dates' calendar days are counted in. */
  zone: string;
  /** Called per topic, so only one topic's rows are held at a time. */
  topics: number[];
  load(topicId: number): Promise<OverviewGrid>;
}

/**
 * Streams the workbook: a legend sheet, then one sheet per topic with learners as rows and
 * trainings as columns, frozen header row and name columns, an auto-filter, real dates
 * (DD.MM.yyyy) on the status colours. The streaming writer keeps memory flat.
 */
export function writeOverviewWorkbook(input: ExportInput, onError: (err: unknown) => void): PassThrough {
  const stream = new PassThrough();
  const labels = LABELS[input.language] ?? LABELS.de;

  const run = async () => {
    // exceljs loads with the first export, not with every server.
    const { default: ExcelJS } = await import("exceljs");
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
    workbook.creator = "CareCampus";
    workbook.created = input.now;
    const taken = new Set<string>();
    const serialOf = excelSerials(input.zone);
    const legend = workbook.addWorksheet(sheetName(labels.legend, taken));
    legend.columns = [{ width: 24 }, { width: 80 }];
    legend.addRow([labels.exported, serialOf(input.now.getTime())]).getCell(2).numFmt = "dd.mm.yyyy";
    legend.addRow([labels.scope, safeText(input.facilityName ?? labels.allFacilities)]);
    legend.addRow([]);
    for (const colour of COLOURS) {
      const row = legend.addRow(["", labels.explain[colour]]);
      row.getCell(1).fill = fill(FILLS[colour]);
    }
    legend.addRow([]);
    legend.addRow(["", labels.cellNote]);
    legend.commit();

    // The next topic loads while this one is written: the database and the writer overlap.
    const load = (i: number) => {
      const topicId = input.topics[i];
      if (topicId === undefined) return undefined;
      const pending = input.load(topicId);
      pending.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
      return pending;
    };
    const colourOf = expiryColourer(input.now, input.zone);
    let next = load(0);
    for (let i = 0; next; i++) {
      const data = await next;
      next = load(i + 1);
      const sheet = workbook.addWorksheet(sheetName(data.topic.name, taken), {
        views: [{ state: "frozen", xSplit: 2, ySplit: 1 }],
      });
      sheet.columns = [
        { header: labels.surname, width: 22 },
        { header: labels.name, width: 18 },
        { header: labels.facility, width: 24 },
        ...data.trainings.map((t) => ({ header: safeText(t.name), width: 18 })),
      ];
      const header = sheet.getRow(1);
      header.font = { bold: true };
      header.alignment = { wrapText: true, vertical: "top" };
      header.height = 45;
      sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: 3 + data.trainings.length } };
      header.commit();
      const width = data.trainings.length;
      for (const [r, user] of data.learners.entries()) {
        // Let the event loop breathe: other requests, the next topic's queries and the zip go on meanwhile.
        if (r % ROWS_PER_TURN === ROWS_PER_TURN - 1) {
          await new Promise(setImmediate);
          await zipCaughtUp(sheet);
        }
        const row = sheet.addRow([safeText(user.surname), safeText(user.name), safeText(user.facilityName ?? "")]);
        for (let c = 1; c <= 3; c++) row.getCell(c).style = PLAIN;
        for (let i = 0; i < width; i++) {
          const cell = row.getCell(4 + i);
          const expiry = data.expires[r * width + i] as number;
          if (expiry === NOT_ASSIGNED) cell.style = CELL_STYLES.unassigned;
          else if (Number.isNaN(expiry)) cell.style = CELL_STYLES.none;
          else {
            // A number in a date format is what an Excel date is; ExcelJS writes a Date the same way.
            cell.value = serialOf(expiry);
            cell.style = CELL_STYLES.dated[colourOf(expiry)];
          }
        }
        row.commit();
      }
      sheet.commit();
    }
    await workbook.commit();
  };
  run().catch((err: unknown) => {
    onError(err);
    stream.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return stream;
}

/** "Schulungsstand_Haus-Sonnenhof_2026-11-22.xlsx": facility and date, safe in a header. */
export function exportFileName(facilityName: string | undefined, now: Date, zone: string): string {
  const day = isoDay(now, zone);
  const facility = (facilityName ?? "Alle")
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-|-$/g, "");
  return `Schulungsstand_${facility || "Alle"}_${day}.xlsx`;
}
