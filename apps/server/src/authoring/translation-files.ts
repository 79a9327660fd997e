import {
  contentLanguageTag,
  ErrorCode,
  SOURCE_LANGUAGE,
  TRANSLATION_STATUSES,
  type TranslationStatus,
} from "@carecampus/contract";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import Papa from "papaparse";
import { AppError } from "../errors";
import { csvField, fromCsvField } from "../http/csv";

/*
 * A training's translations as a file for translators (issue 31): XLIFF 2.0 for translation tools,
 * CSV for a spreadsheet. One unit per question, `q<question id>`, carrying the version of the German
 * it shows (content/translations.ts sourceHash); one segment (one CSV row) per text: `text`, each
 * answer `a<answer id>`, `explanation` (HTML, as text) and `hint` where the German has one. The
 * names learners choose from come first, a unit each (`topic<id>`, `training<id>`,
 * `questionnaire<id>`) with one segment `name` and the version of the German name (nameHash).
 *
 * The translation's status travels as the segments' XLIFF state: draft is `translated`, a machine's
 * suggestion `initial` with the sub-state `carecampus:machine`, reviewed `reviewed`, published
 * `final`. On import a question takes the lowest state of its segments. The CSV has a status
 * column with the statuses' own names.
 */

/** A question or a name as the file shows it. */
export interface ExportUnit {
  /** q<question id>, or a name's: topic<id>, training<id>, questionnaire<id>. */
  unit: string;
  /** The version of the German text (sourceHash, nameHash). */
  version: string;
  /** Where it stands, for the translator: "<questionnaire> · <number>", or which name it is. */
  label: string;
  /** The status of the translation there is; null when there is none. */
  status: TranslationStatus | null;
  fields: { id: string; source: string; target: string }[];
}

/** A unit as a file brings it back: its targets by segment id. */
export interface ImportUnit {
  unit: string;
  questionId: number | null;
  version: string | null;
  /** null: a status the file names that is not one (`badStatus` says which). */
  status: TranslationStatus | null;
  badStatus?: string;
  targets: Map<string, string>;
  /** Segments whose target is not plain text (XLIFF inline elements). */
  markup: string[];
  /** Segment ids (fields) the unit has more than once. */
  duplicates: string[];
}

export const XLIFF_NS = "urn:oasis:names:tc:xliff:document:2.0";
const VERSION_NOTE = "carecampus-source-version";
const MACHINE = "carecampus:machine";

const STATE_OF: Record<TranslationStatus, string> = {
  machine: "initial",
  draft: "translated",
  reviewed: "reviewed",
  published: "final",
};
const RANK: Record<TranslationStatus, number> = { machine: 0, draft: 1, reviewed: 2, published: 3 };

/** The lower of two statuses: a question is only as far as its least finished text. */
function lower(a: TranslationStatus | null, b: TranslationStatus): TranslationStatus {
  return a === null || RANK[b] < RANK[a] ? b : a;
}

const fileError = (message: string) => new AppError(ErrorCode.validation, message);

/** Characters XML 1.0 cannot hold at all (control characters but tab and line breaks): left out. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to drop
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, "")
    .replace(/[&<>"]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&quot;"));
}

export function unitId(questionId: number): string {
  return `q${questionId}`;
}

function questionIdOf(unit: string): number | null {
  const m = /^q([1-9]\d{0,9})$/.exec(unit);
  const id = m ? Number(m[1]) : Number.NaN;
  return Number.isSafeInteger(id) && id <= 2_147_483_647 ? id : null;
}

/** A target language as the file may name it: the content language's code or its BCP 47 tag. */
function sameLanguage(named: string, lang: string): boolean {
  const n = named.trim().toLowerCase().replace(/_/g, "-");
  const tag = contentLanguageTag(lang).toLowerCase();
  if (n === lang || n === tag) return true;
  // A regional tag of the language (en-GB for en) — but not the one of a content language of its
  // own (pt-BR is "br", not "pt"), and nothing else where the content language is regional itself.
  return tag === lang && n.split("-")[0] === lang && n !== contentLanguageTag("br").toLowerCase();
}

export function writeXliff(units: ExportUnit[], lang: string, training: { id: number; name: string }): string {
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<xliff xmlns="${XLIFF_NS}" version="2.0" srcLang="${SOURCE_LANGUAGE}" trgLang="${escapeXml(contentLanguageTag(lang))}">`,
    `  <file id="training-${training.id}" original="${escapeXml(training.name)}">`,
  ];
  for (const u of units) {
    out.push(`    <unit id="${escapeXml(u.unit)}" name="${escapeXml(u.label)}">`);
    out.push(`      <notes>`, `        <note category="${VERSION_NOTE}">${u.version}</note>`, `      </notes>`);
    for (const f of u.fields) {
      const state =
        u.status === null || f.target === ""
          ? ` state="initial"`
          : ` state="${STATE_OF[u.status]}"${u.status === "machine" ? ` subState="${MACHINE}"` : ""}`;
      out.push(`      <segment id="${f.id}"${state}>`);
      out.push(`        <source xml:space="preserve">${escapeXml(f.source)}</source>`);
      if (f.target !== "") out.push(`        <target xml:space="preserve">${escapeXml(f.target)}</target>`);
      out.push(`      </segment>`);
    }
    out.push(`    </unit>`);
  }
  out.push(`  </file>`, `</xliff>`, "");
  return out.join("\n");
}

const CSV_COLUMNS = ["questionnaire", "question", "field", "version", "status", SOURCE_LANGUAGE] as const;

/** UTF-8 with a byte order mark and semicolons: what a spreadsheet in Germany opens as columns. */
export function writeCsv(units: ExportUnit[], lang: string): string {
  const rows = [[...CSV_COLUMNS, lang]];
  for (const u of units) {
    for (const f of u.fields) {
      rows.push([u.label, u.unit, f.id, u.version, f.target === "" ? "" : (u.status ?? ""), f.source, f.target]);
    }
  }
  return `\uFEFF${rows.map((r) => r.map((c) => csvField(c)).join(";")).join("\r\n")}\r\n`;
}

/** A file's bytes as text: UTF-8 only (a byte order mark is dropped); else a §8 error. */
export function fileText(body: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    throw fileError("The file is not UTF-8 text: save it as UTF-8 (in a spreadsheet: “CSV UTF-8”)");
  }
}

/** fast-xml-parser's value of a <source>/<target>: its text, or null when it holds elements. */
function plainText(value: unknown): string | null {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.every((k) => k === "#text" || k.startsWith("@_"))) {
      const text = (value as Record<string, unknown>)["#text"];
      return typeof text === "string" ? text : "";
    }
  }
  return null;
}

type Node = Record<string, unknown>;
const list = (value: unknown): Node[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]) as Node[];

export function parseXliff(text: string, lang: string): ImportUnit[] {
  // XLIFF needs no document type: one (its entities, external ones) is refused before parsing.
  if (/<!DOCTYPE/i.test(text)) throw fileError("The file has a <!DOCTYPE>: an XLIFF file needs none");
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw fileError(`The file is not well-formed XML: line ${valid.err.line}: ${valid.err.msg}`);
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    removeNSPrefix: false,
    processEntities: true,
    // Character references (&#160;, &#x201C;) as the characters they stand for.
    htmlEntities: true,
    isArray: (name) => ["file", "unit", "segment", "note", "notes", "group"].includes(name),
  });
  let doc: Node;
  try {
    doc = parser.parse(text) as Node;
  } catch (err) {
    // Shapes the parser refuses past the validator (nesting too deep, reserved element names).
    throw fileError(`The file cannot be read as XLIFF: ${(err as Error).message.slice(0, 200)}`);
  }
  const root = doc.xliff as Node | undefined;
  if (!root || typeof root !== "object") throw fileError("The file is not XLIFF: its root element is not <xliff>");
  if (root["@_xmlns"] !== XLIFF_NS || !String(root["@_version"] ?? "").startsWith("2.")) {
    throw fileError(`The file is not XLIFF 2 (version="2.0", xmlns="${XLIFF_NS}")`);
  }
  const src = String(root["@_srcLang"] ?? "");
  if (!sameLanguage(src, SOURCE_LANGUAGE)) {
    throw fileError(`The file's source language is "${src}"; it must be German (de)`);
  }
  const trg = String(root["@_trgLang"] ?? "");
  if (!sameLanguage(trg, lang)) {
    throw fileError(`The file's target language is "${trg || "none"}", not "${lang}"`);
  }
  const units: ImportUnit[] = [];
  const collect = (container: Node) => {
    for (const group of list(container.group)) collect(group);
    for (const u of list(container.unit)) {
      const id = String(u["@_id"] ?? "");
      let version: string | null = null;
      for (const notes of list(u.notes)) {
        for (const note of list(notes.note)) {
          if (note["@_category"] === VERSION_NOTE) version = (plainText(note) ?? "").trim();
        }
      }
      const targets = new Map<string, string>();
      const markup: string[] = [];
      const duplicates: string[] = [];
      let status: TranslationStatus | null = null;
      for (const s of list(u.segment)) {
        const segment = String(s["@_id"] ?? "");
        if (targets.has(segment) || markup.includes(segment)) duplicates.push(segment);
        const target = plainText(s.target);
        if (target === null) {
          markup.push(segment);
          continue;
        }
        targets.set(segment, target);
        if (target.trim() === "") continue;
        const state = String(s["@_state"] ?? "initial");
        const found: TranslationStatus =
          state === "final"
            ? "published"
            : state === "reviewed"
              ? "reviewed"
              : state === "initial" && s["@_subState"] === MACHINE
                ? "machine"
                : "draft";
        status = lower(status, found);
      }
      units.push({
        unit: id,
        questionId: questionIdOf(id),
        version,
        status: status ?? "draft",
        targets,
        markup,
        duplicates,
      });
    }
  };
  const files = list(root.file);
  if (files.length === 0) throw fileError("The file has no <file> element");
  for (const file of files) collect(file);
  return units;
}

export function parseCsv(text: string, lang: string): ImportUnit[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), {
    skipEmptyLines: "greedy",
    delimitersToGuess: [";", ",", "\t"],
  });
  const quotes = parsed.errors.find((e) => e.type === "Quotes");
  if (quotes) throw fileError(`The CSV has an unclosed quote in row ${(quotes.row ?? 0) + 1}`);
  const [header, ...rows] = parsed.data;
  if (!header) throw fileError("The CSV is empty");
  const names = header.map((h) => h.trim().toLowerCase());
  const column = (name: string) => names.indexOf(name);
  const targetColumn = names.findIndex((n) => n !== "" && sameLanguage(n, lang) && n !== SOURCE_LANGUAGE);
  const missing = ["question", "field", "version", "status"].filter((c) => column(c) < 0);
  if (targetColumn < 0) missing.push(lang);
  if (missing.length > 0) {
    throw fileError(
      `The CSV lacks the column(s) ${missing.join(", ")} (the header of the export: ${[...CSV_COLUMNS, lang].join(";")})`,
    );
  }
  const units = new Map<string, ImportUnit & { versions: Set<string> }>();
  for (const row of rows) {
    // Every cell as the export wrote it: without the apostrophe that kept a formula a text.
    const cell = (i: number) => fromCsvField(row[i] ?? "");
    const unit = cell(column("question")).trim();
    if (unit === "") continue;
    let u = units.get(unit);
    if (!u) {
      u = {
        unit,
        questionId: questionIdOf(unit),
        version: null,
        status: null,
        targets: new Map(),
        markup: [],
        duplicates: [],
        versions: new Set(),
      };
      units.set(unit, u);
    }
    u.versions.add(cell(column("version")).trim());
    const target = cell(targetColumn);
    const field = cell(column("field")).trim();
    if (u.targets.has(field)) u.duplicates.push(field);
    u.targets.set(field, target);
    if (target.trim() === "") continue;
    const named = cell(column("status")).trim().toLowerCase();
    const status =
      named === ""
        ? "draft"
        : (TRANSLATION_STATUSES as readonly string[]).includes(named)
          ? (named as TranslationStatus)
          : null;
    if (status === null) u.badStatus = named;
    else if (u.badStatus === undefined) u.status = lower(u.status, status);
  }
  return [...units.values()].map(({ versions, ...u }) => ({
    ...u,
    // Rows of one question that name different versions do not belong together.
    version: versions.size === 1 ? [...versions][0] || null : null,
    status: u.badStatus !== undefined ? null : (u.status ?? "draft"),
  }));
}
