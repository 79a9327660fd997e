import {
  IMPORT_FIELDS,
  IMPORT_MAX_ROWS,
  type ImportField,
  type ImportRow,
  importKey,
  splitNames,
} from "@carecampus/contract";
import Papa from "papaparse";

export type CsvEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";
export type Decoded = { text: string; encoding: CsvEncoding } | { error: "wrongEncoding" };

export const DELIMITERS = [";", ",", "\t"] as const;
export type Delimiter = (typeof DELIMITERS)[number];

export type ParsedCsv =
  | { error: "empty" }
  | { error: "missingHeaders"; missing: ImportField[] }
  | { error: "tooManyRows" }
  /** An unbalanced quote: the cells after it cannot be told apart. `row` is 1-based, as Excel counts. */
  | { error: "badQuotes"; row: number }
  /** `rowNumbers[i]` is the 1-based row of `rows[i]` in the file (the header is row 1), as Excel shows it. */
  | { rows: ImportRow[]; rowNumbers: number[]; delimiter: Delimiter };

const WRONG: Decoded = { error: "wrongEncoding" };

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/** A strict decoder: a byte sequence that is not valid in `label` throws instead of becoming U+FFFD. */
function strictDecode(bytes: Uint8Array, label: "utf-8" | "utf-16le" | "utf-16be"): string | null {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * UTF-16 without a byte order mark, told by where the NUL bytes sit: text of Latin letters has a
 * NUL as the high byte of (nearly) every code unit, and (nearly) never as the low byte.
 */
function utf16ByNuls(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  if (bytes.length < 2 || bytes.length % 2 !== 0) return null;
  const end = Math.min(bytes.length, 8192);
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < end; i += 2) {
    if (bytes[i] === 0) evenNuls++;
    if (bytes[i + 1] === 0) oddNuls++;
  }
  const units = end / 2;
  if (oddNuls > units / 2 && evenNuls < units / 20) return "utf-16le";
  if (evenNuls > units / 2 && oddNuls < units / 20) return "utf-16be";
  return null;
}

/**
 * Control characters other than tab and line breaks (C0, DEL and C1), or U+FFFD from the legacy
 * decoder, mean a binary file or a wrong guess: no name or password contains them.
 */
function looksBinary(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
    if ((c >= 0x7f && c <= 0x9f) || c === 0xfffd) return true;
  }
  return false;
}

function accept(text: string | null, encoding: CsvEncoding): Decoded {
  if (text === null || looksBinary(text)) return WRONG;
  return { text: text.replace(/^\uFEFF/, ""), encoding };
}

/**
 * Reads a CSV file's bytes the way Excel may have written them (spec §5 'Wrong encoding'):
 * a byte order mark first, then UTF-16 by its NUL pattern, then strict UTF-8, last a detector
 * whose answer counts only for Windows-1252 and its ISO-8859-1/-15 subsets, the legacy
 * encoding of German Excel. The detector (over a megabyte) loads only when it is needed.
 */
export async function decodeCsv(bytes: Uint8Array): Promise<Decoded> {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return accept(strictDecode(bytes.subarray(3), "utf-8"), "utf-8");
  if (startsWith(bytes, [0xff, 0xfe])) return accept(strictDecode(bytes.subarray(2), "utf-16le"), "utf-16le");
  if (startsWith(bytes, [0xfe, 0xff])) return accept(strictDecode(bytes.subarray(2), "utf-16be"), "utf-16be");
  const utf16 = utf16ByNuls(bytes);
  if (utf16) return accept(strictDecode(bytes, utf16), utf16);
  // NUL bytes outside UTF-16 mean a binary file; strict UTF-8 would let them through.
  if (bytes.includes(0)) return WRONG;
  const utf8 = strictDecode(bytes, "utf-8");
  if (utf8 !== null) return accept(utf8, "utf-8");
  const { decodeWindows1252 } = await import("./legacy-encoding");
  return accept(decodeWindows1252(bytes), "windows-1252");
}

/**
 * The delimiter the header line uses most, counted outside quotes. German Excel writes `;`,
 * other locales `,`, "Unicode text" a tab; on a tie the order of DELIMITERS decides.
 */
export function detectDelimiter(headerLine: string): Delimiter {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const c of headerLine) {
    if (c === '"') quoted = !quoted;
    else if (!quoted) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best: Delimiter = DELIMITERS[0];
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/** The first line that is not empty, up to a line break outside quotes. */
function firstLine(text: string): string {
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) {
      if (i > start) return text.slice(start, i);
      start = i + 1;
    }
  }
  return text.slice(start);
}

const cell = (value: string | undefined) => (value ?? "").normalize("NFC").trim();
const isBlank = (record: string[]) => record.every((c) => c.trim() === "");

/** Where each import field sits in the header, or the fields it lacks. Extra columns are ignored. */
function mapHeader(header: string[]): Map<ImportField, number> | ImportField[] {
  const index = new Map<ImportField, number>();
  header.forEach((name, i) => {
    const field = IMPORT_FIELDS.find((f) => f === importKey(name));
    if (field && !index.has(field)) index.set(field, i);
  });
  const missing = IMPORT_FIELDS.filter((f) => !index.has(f));
  return missing.length > 0 ? missing : index;
}

function toRow(record: string[], at: Map<ImportField, number>): ImportRow {
  const get = (f: ImportField) => cell(record[at.get(f) as number]);
  return {
    surname: get("surname"),
    name: get("name"),
    login: get("login"),
    facility: get("facility"),
    activities: splitNames(get("activities")),
    qualifications: splitNames(get("qualifications")),
    password: get("password"),
  };
}

/**
 * Parses a decoded user CSV (spec §5): a header naming IMPORT_FIELDS in any order and case,
 * one user per row. Empty rows (Excel writes `;;;;;;` for formatted blank rows) are skipped.
 */
export function parseUserCsv(text: string): ParsedCsv {
  let body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return { error: "empty" };
  // Excel's own hint line `sep=;` names the delimiter and is no header.
  const hint = /^sep=(.)\r?\n/i.exec(body);
  const delimiter = DELIMITERS.find((d) => d === hint?.[1]) ?? detectDelimiter(firstLine(body));
  if (hint) body = body.slice(hint[0].length);
  const parsed = Papa.parse<string[]>(body, { delimiter, quoteChar: '"', skipEmptyLines: false });
  const quoteError = parsed.errors.find((e) => e.type === "Quotes");
  if (quoteError) return { error: "badQuotes", row: (quoteError.row ?? 0) + 1 };

  const records = parsed.data.map((record, i) => ({ record, number: i + 1 })).filter((r) => !isBlank(r.record));
  const [header, ...data] = records;
  if (!header) return { error: "empty" };
  const at = mapHeader(header.record);
  if (Array.isArray(at)) return { error: "missingHeaders", missing: at };
  if (data.length === 0) return { error: "empty" };
  if (data.length > IMPORT_MAX_ROWS) return { error: "tooManyRows" };
  return { rows: data.map((r) => toRow(r.record, at)), rowNumbers: data.map((r) => r.number), delimiter };
}

const quoteCell = (value: string) => (/[;",\r\n\t]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/**
 * A template file: the header and one example row, semicolon-delimited UTF-8 with a byte order
 * mark, which German Excel opens with the umlauts intact.
 */
export function templateCsv(example: ImportRow): Uint8Array<ArrayBuffer> {
  const values: Record<ImportField, string> = {
    ...example,
    activities: example.activities.join(";"),
    qualifications: example.qualifications.join(";"),
  };
  const lines = [IMPORT_FIELDS.join(";"), IMPORT_FIELDS.map((f) => quoteCell(values[f])).join(";")];
  return new TextEncoder().encode(`\uFEFF${lines.join("\r\n")}\r\n`);
}

/** Only the extension tells a CSV file: browsers report .csv as text/csv, application/vnd.ms-excel or nothing. */
export const isCsvFileName = (name: string) => /\.csv$/i.test(name.trim());
