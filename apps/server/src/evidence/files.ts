import {
  DEFAULT_LANGUAGE,
  type EvidenceReport,
  formatDate,
  isoDay,
  type Language,
  timeOfDay,
} from "@carecampus/contract";
import br from "@carecampus/web/locales/br.json";
import de from "@carecampus/web/locales/de.json";
import en from "@carecampus/web/locales/en.json";
import es from "@carecampus/web/locales/es.json";
import fr from "@carecampus/web/locales/fr.json";
import type { PDFFont, PDFPage } from "pdf-lib";
import { pdfTools, wrap } from "../certificates/pdf";
import { fill } from "../mail/templates";
import { safeText } from "../overview/xlsx";

/*
 * The evidence at a date as files (issue 29): a PDF for the inspector and a workbook. Their texts
 * are the web app's (locales, namespace "evidence"), in the caller's language.
 */

type Texts = typeof de.evidence;
const TEXTS: Record<Language, Texts> = {
  de: de.evidence,
  en: en.evidence,
  fr: fr.evidence,
  es: es.evidence,
  br: br.evidence,
};

export interface FileLook {
  language: Language;
  zone: string;
  /** INSTALLATION_NAME. */
  installation: string;
}

const textsOf = (language: Language): Texts => TEXTS[language] ?? TEXTS[DEFAULT_LANGUAGE];
const percent = (rate: number | null) => (rate === null ? "–" : `${Math.round(rate * 1000) / 10}`);
/** DD.MM.YYYY of a day YYYY-MM-DD. */
const dayText = (day: string) => day.split("-").reverse().join(".");

/** The report's notes: from which day it is exact (or that it is projected), and revocations. */
function notes(report: EvidenceReport, t: Texts): string[] {
  const from = report.exact_from ? dayText(report.exact_from) : null;
  const history = from === null ? t.noHistory : fill(report.projected ? t.projected : t.exactFrom, { date: from });
  return [history, t.revokedNever];
}

function made(report: EvidenceReport, zone: string): string {
  const at = new Date(report.generated_at);
  const { hour, minute } = timeOfDay(at, zone);
  return `${formatDate(at, zone)} ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

const personName = (p: EvidenceReport["trainings"][number]["people"][number], t: Texts) =>
  `${p.surname}, ${p.name}${p.former ? ` (${t.former})` : ""}`;

/** "Nachweis_Haus-Sonnenhof_2026-03-01.pdf". */
export function evidenceFileName(report: EvidenceReport, t: Texts, ext: "pdf" | "xlsx"): string {
  const part = (s: string) =>
    s
      .normalize("NFC")
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-|-$/g, "");
  return `${part(t.sheet) || "Evidence"}_${part(report.facility.name) || report.facility.id}_${report.date}.${ext}`;
}

/** `text` cut to `width` with an ellipsis where it does not fit. */
function fit(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** The PDF for the inspector: A4 pages, per training its table of people with code or "missing". */
export async function renderEvidencePdf(report: EvidenceReport, look: FileLook): Promise<Uint8Array> {
  const t = textsOf(look.language);
  const { PDFDocument, rgb, fontkit, fonts } = await pdfTools();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const regular = await doc.embedFont(fonts.regular, { subset: true });
  const bold = await doc.embedFont(fonts.bold, { subset: true });
  const title = fill(t.pdfTitle, { date: dayText(report.date) });
  doc.setTitle(`${title} – ${report.facility.name}`);
  doc.setAuthor(look.installation);
  doc.setCreator("CareCampus");
  doc.setCreationDate(new Date(report.generated_at));
  const TEAL = rgb(0.059, 0.463, 0.431);
  const DARK = rgb(0.1, 0.12, 0.14);
  const GREY = rgb(0.35, 0.38, 0.4);
  const RED = rgb(0.69, 0.1, 0.1);
  const [W, H, M] = [595.28, 841.89, 48];
  const BOTTOM = 60;
  const columns = [M, M + 250, M + 400];
  let page: PDFPage = doc.addPage([W, H]);
  let y = H - M;
  const text = (s: string, x: number, size: number, font = regular, color = DARK, width = W - M - x) =>
    page.drawText(fit(s, font, size, width), { x, y, size, font, color });
  const newPage = () => {
    page = doc.addPage([W, H]);
    y = H - M;
  };
  const room = (needed: number) => {
    if (y - needed < BOTTOM) newPage();
  };

  text(look.installation, M, 11, bold, TEAL);
  y -= 24;
  for (const line of wrap(title, bold, 18, W - 2 * M)) {
    text(line, M, 18, bold);
    y -= 22;
  }
  y -= 4;
  for (const [label, value] of [
    [t.facility, report.facility.name],
    [t.date, dayText(report.date)],
    [t.made, made(report, look.zone)],
  ] as const) {
    text(`${label}:`, M, 10, bold, GREY);
    text(value, M + 110, 10);
    y -= 15;
  }
  y -= 4;
  for (const note of notes(report, t)) {
    for (const line of wrap(note, regular, 9, W - 2 * M)) {
      text(line, M, 9, regular, GREY);
      y -= 12;
    }
  }
  y -= 10;

  for (const training of report.trainings) {
    const heading = wrap(`${training.topic.name} – ${training.name}`, bold, 12, W - 2 * M);
    room(54 + 16 * heading.length);
    page.drawLine({ start: { x: M, y: y + 10 }, end: { x: W - M, y: y + 10 }, thickness: 0.6, color: TEAL });
    for (const line of heading) {
      text(line, M, 12, bold, TEAL);
      y -= 16;
    }
    text(
      `${t.required}: ${training.required}   ${t.held}: ${training.held}   ${t.rateLabel}: ${percent(training.rate)} %`,
      M,
      10,
      bold,
    );
    y -= 16;
    if (training.people.length === 0) {
      text(t.nobodyRequired, M, 9, regular, GREY);
      y -= 20;
      continue;
    }
    const header = () => {
      text(t.person, columns[0] as number, 8, bold, GREY, 240);
      text(t.code, columns[1] as number, 8, bold, GREY, 140);
      text(t.validUntil, columns[2] as number, 8, bold, GREY);
      y -= 13;
    };
    header();
    for (const person of training.people) {
      if (y - 13 < BOTTOM) {
        newPage();
        text(`${training.topic.name} – ${training.name}`, M, 10, bold, TEAL);
        y -= 16;
        header();
      }
      text(personName(person, t), columns[0] as number, 9, regular, DARK, 240);
      if (person.certificate) {
        text(person.certificate.code, columns[1] as number, 9, regular, DARK, 140);
        text(formatDate(person.certificate.expires_at, look.zone), columns[2] as number, 9);
      } else {
        text(t.missing, columns[1] as number, 9, bold, RED, 140);
      }
      y -= 13;
    }
    y -= 12;
  }
  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const footer = `${report.facility.name} · ${dayText(report.date)} · ${fill(t.page, { page: i + 1, pages: pages.length })}`;
    p.drawText(fit(footer, regular, 8, W - 2 * M), { x: M, y: 30, size: 8, font: regular, color: GREY });
  });
  return doc.save();
}

/** The workbook: an overview sheet (one row per training with its rate) and one row per person and training. */
export async function renderEvidenceXlsx(report: EvidenceReport, look: FileLook): Promise<Buffer> {
  const t = textsOf(look.language);
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  workbook.creator = look.installation;
  workbook.created = new Date(report.generated_at);
  const sheet = workbook.addWorksheet(t.sheet.slice(0, 31), { views: [{ state: "frozen", ySplit: 8 }] });
  sheet.columns = [{ width: 24 }, { width: 30 }, { width: 22 }, { width: 18 }, { width: 22 }, { width: 14 }];
  sheet.addRow([t.installation, safeText(look.installation)]);
  sheet.addRow([t.facility, safeText(report.facility.name)]);
  sheet.addRow([t.date, dayText(report.date)]);
  sheet.addRow([t.made, made(report, look.zone)]);
  for (const note of notes(report, t)) sheet.addRow([note]);
  sheet.addRow([]);
  const header = sheet.addRow([t.topic, t.training, t.person, t.code, t.validUntil, t.rateLabel]);
  header.font = { bold: true };
  for (const training of report.trainings) {
    const summary = sheet.addRow([
      safeText(training.topic.name),
      safeText(training.name),
      `${t.required}: ${training.required}`,
      `${t.held}: ${training.held}`,
      "",
      training.rate,
    ]);
    summary.font = { bold: true };
    summary.getCell(6).numFmt = "0.0%";
    for (const person of training.people) {
      const row = sheet.addRow([
        safeText(training.topic.name),
        safeText(training.name),
        safeText(personName(person, t)),
        person.certificate ? person.certificate.code : t.missing,
        person.certificate ? isoDayAsDate(person.certificate.expires_at, look.zone) : "",
      ]);
      if (person.certificate) row.getCell(5).numFmt = "dd.mm.yyyy";
      else row.getCell(4).font = { bold: true, color: { argb: "FFB01919" } };
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The calendar day of an instant in `zone` as a date without time (what a spreadsheet shows). */
function isoDayAsDate(iso: string, zone: string): Date {
  return new Date(`${isoDay(new Date(iso), zone)}T00:00:00Z`);
}

export { textsOf };
