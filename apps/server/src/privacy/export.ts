import type { PassThrough } from "node:stream";
import {
  EXPORT_CATEGORIES,
  type ExportCategory,
  formatDate,
  isoDay,
  languageTag,
  personName,
} from "@carecampus/contract";
import archiver from "archiver";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { escapeHtml } from "../authoring/question-bank/text";
import { renderCertificate } from "../certificates/pdf";
import { type CertificateLook, certificateData, fileNamePart } from "../certificates/service";
import { issuedCertificateColumns, withCertificateContext } from "../db/certificates";
import type { Db } from "../db/client";
import { certificates, partnerCertificates, preferences } from "../db/schema";
import { mailLanguage } from "../mail/templates";
import { type CategoryData, collectPersonData } from "./collect";
import type { PersonKeys } from "./registry";
import { summaryTexts } from "./texts";

/*
 * A person's data export (GDPR Art. 15 and 20), one ZIP: data/<category>.json for every export
 * category of the privacy registry, summary.html (readable, in the person's language) and the
 * person's certificates as PDFs. The data is read before the answer starts, so a failure is a
 * proper error; the PDFs are made while the ZIP streams out.
 */

export interface ExportInput {
  person: PersonKeys;
  look: CertificateLook;
  now: Date;
}

interface CertificateFile {
  path: string;
  training: string;
  acquiredAt: Date;
  expiresAt: Date;
  /** A partner's PDF as it was issued, or what renders the training's own certificate. */
  pdf: Uint8Array | (() => Promise<Uint8Array>);
}

/** A file name part (never empty). */
const slug = (s: string) => fileNamePart(s) || "x";

/** The certificates of a person: each issued certificate (the partner's PDF where a partner course earned it), then partner certificates counted as none. */
async function certificateFiles(db: Db, person: PersonKeys, look: CertificateLook): Promise<CertificateFile[]> {
  const rows = await withCertificateContext(
    db
      .select({
        ...issuedCertificateColumns,
        // Left-joined: the null is said here (a select in dynamic mode keeps a column's own type).
        partnerPdf: sql<Uint8Array | null>`${partnerCertificates.content}`,
      })
      .from(certificates)
      .$dynamic(),
  )
    .leftJoin(partnerCertificates, eq(partnerCertificates.certificateId, certificates.id))
    .where(eq(certificates.userId, person.id))
    .orderBy(asc(certificates.acquiredAt), asc(certificates.id));
  const files: CertificateFile[] = rows.map((row) => ({
    path: `certificates/${isoDay(row.acquiredAt, look.zone)}-${slug(row.training)}-${row.id}.pdf`,
    training: row.training,
    acquiredAt: row.acquiredAt,
    expiresAt: row.expiresAt,
    pdf: row.partnerPdf ?? (() => renderCertificate(certificateData(row, look))),
  }));
  const partnerOnly = await db
    .select({
      id: partnerCertificates.id,
      course: partnerCertificates.courseName,
      completedAt: partnerCertificates.completedAt,
      pdf: partnerCertificates.content,
    })
    .from(partnerCertificates)
    .where(and(eq(partnerCertificates.userId, person.id), isNull(partnerCertificates.certificateId)))
    .orderBy(asc(partnerCertificates.completedAt));
  for (const p of partnerOnly) {
    files.push({
      path: `certificates/${isoDay(p.completedAt, look.zone)}-${slug(p.course)}-partner-${p.id}.pdf`,
      training: p.course,
      acquiredAt: p.completedAt,
      expiresAt: p.completedAt,
      pdf: p.pdf,
    });
  }
  return files;
}

function rowCount(data: CategoryData | undefined): number {
  return Object.values(data ?? {}).reduce((sum, rows) => sum + rows.length, 0);
}

function summaryHtml(
  language: ReturnType<typeof mailLanguage>,
  input: ExportInput,
  data: Map<ExportCategory, CategoryData>,
  files: CertificateFile[],
): string {
  const t = summaryTexts(language);
  const e = escapeHtml;
  const zone = input.look.zone;
  const rows = EXPORT_CATEGORIES.map(
    (c) =>
      `<tr><th scope="row">${e(t.part[c])}</th><td>${e(t.partWhat[c])}</td><td><code>data/${c}.json</code></td><td class="n">${rowCount(data.get(c))}</td></tr>`,
  ).join("\n");
  const certificateRows = files
    .map(
      (f) =>
        `<tr><th scope="row">${e(f.training)}</th><td>${formatDate(f.acquiredAt, zone)}</td><td>${formatDate(f.expiresAt, zone)}</td><td><code>${e(f.path)}</code></td></tr>`,
    )
    .join("\n");
  const fill = (s: string, values: Record<string, string>) =>
    s.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, k: string) => (k in values ? e(values[k] as string) : whole));
  return `<!doctype html>
<html lang="${languageTag(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(t.title)}</title>
<style>
body { font-family: system-ui, sans-serif; line-height: 1.5; margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem; color: #1a1a1a; background: #fff; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { border: 1px solid #bbb; padding: .4rem .6rem; text-align: left; vertical-align: top; }
thead th { background: #eef2f6; }
td.n { text-align: right; }
code { font-size: .9em; overflow-wrap: break-word; }
</style>
</head>
<body>
<main>
<h1>${e(t.title)}</h1>
<p>${fill(t.intro, { name: personName(input.person), login: input.person.login, date: formatDate(input.now, zone) })}</p>
<h2>${e(t.contents)}</h2>
<table>
<thead><tr><th scope="col">${e(t.colPart)}</th><th scope="col">${e(t.colWhat)}</th><th scope="col">${e(t.colFile)}</th><th scope="col">${e(t.colCount)}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p>${e(t.formats)}</p>
<h2>${e(t.certificates)}</h2>
${
  files.length === 0
    ? `<p>${e(t.noCertificates)}</p>`
    : `<table>
<thead><tr><th scope="col">${e(t.colTraining)}</th><th scope="col">${e(t.colAcquired)}</th><th scope="col">${e(t.colExpires)}</th><th scope="col">${e(t.colFile)}</th></tr></thead>
<tbody>
${certificateRows}
</tbody>
</table>`
}
<h2>${e(t.notIncludedTitle)}</h2>
<p>${e(t.notIncluded)}</p>
<p>${e(t.contact)}</p>
</main>
</body>
</html>
`;
}

/** The export's file name: the login (or the id, once erased) and the day. */
export function exportFileName(person: PersonKeys, now: Date, zone: string): string {
  return `CareCampus-${slug(person.login) || person.id}-${isoDay(now, zone)}.zip`;
}

/**
 * Reads everything of the person, then answers with the ZIP as a stream. `onError`: the stream
 * broke after the answer began (logged; the download ends incomplete).
 */
export async function personExport(
  db: Db,
  input: ExportInput,
  onError: (err: unknown) => void,
): Promise<{ stream: PassThrough; filename: string }> {
  const data = await collectPersonData(db, input.person);
  const files = await certificateFiles(db, input.person, input.look);
  const [pref] = await db
    .select({ language: preferences.language })
    .from(preferences)
    .where(eq(preferences.userId, input.person.id));
  const language = mailLanguage(pref?.language);

  const archive = archiver("zip", { zlib: { level: 6 } });
  archive.on("warning", onError);
  archive.on("error", onError);
  for (const category of EXPORT_CATEGORIES) {
    archive.append(`${JSON.stringify(data.get(category) ?? {}, null, 2)}\n`, {
      name: `data/${category}.json`,
      date: input.now,
    });
  }
  archive.append(summaryHtml(language, input, data, files), { name: "summary.html", date: input.now });
  const pdfs = async () => {
    for (const file of files) {
      const bytes = typeof file.pdf === "function" ? await file.pdf() : file.pdf;
      archive.append(Buffer.from(bytes), { name: file.path, date: input.now });
    }
    await archive.finalize();
  };
  pdfs().catch((err: unknown) => {
    onError(err);
    archive.abort();
  });
  return {
    stream: archive as unknown as PassThrough,
    filename: exportFileName(input.person, input.now, input.look.zone),
  };
}
