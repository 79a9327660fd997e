/*
 * The backup file (issue 28, "Backups that restore"): gzip'd lines of UTF-8 JSON, written and read
 * as a stream, so neither side holds more than a few rows in memory.
 *
 *   {"$":"carecampus-backup","format":1,...}        the header: versions, migration level, time
 *   {"$":"table","name":"users","columns":[…]}      then per table: its columns,
 *   {"id":1,"login":"…",…}                          one line per row (PostgreSQL's to_jsonb),
 *   {"$":"end","name":"users","rows":7,"sha256":…}  and its row count and the rows' SHA-256;
 *   {"$":"sequences","values":[…]}                  the id sequences' values;
 *   {"$":"manifest","tables":[…],"sha256":…}        last: every table's count and hash, and the
 *                                                   SHA-256 of every line before this one.
 *
 * A row line never starts with {"$": (no column is named $). A file without its manifest line is
 * cut off; a changed byte fails gzip's CRC or one of the hashes.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import readline from "node:readline";
import zlib from "node:zlib";

export const BACKUP_MAGIC = "carecampus-backup";
/** The layout of the lines above; a reader refuses a format it does not know. */
export const BACKUP_FORMAT = 1;

export interface MigrationLevel {
  /** How many migrations are applied. */
  count: number;
  /** The last applied migration's tag (e.g. 0019_records) and its journal time. */
  tag: string;
  when: number;
}

export interface BackupHeader {
  $: typeof BACKUP_MAGIC;
  format: number;
  app: { version: string; commit: string };
  migration: MigrationLevel;
  createdAt: string;
  database: "pglite" | "postgres";
}

export interface TableStart {
  $: "table";
  name: string;
  columns: string[];
}

export interface TableEnd {
  $: "end";
  name: string;
  rows: number;
  sha256: string;
}

export interface SequenceValue {
  name: string;
  /** null: never used (a fresh sequence starts where it should). */
  value: string | null;
}

export interface Sequences {
  $: "sequences";
  values: SequenceValue[];
}

export interface Manifest {
  $: "manifest";
  tables: { name: string; rows: number; sha256: string }[];
  sha256: string;
}

/** A backup that cannot be read or restored: the message says why, for the operator. */
export class BackupError extends Error {}

const CONTROL = '{"$":';

/** Writes the lines of a backup, keeping the hashes as it goes. */
export class BackupWriter {
  private readonly total = crypto.createHash("sha256");
  private table: { name: string; rows: number; hash: crypto.Hash } | null = null;
  private readonly tables: Manifest["tables"] = [];

  constructor(private readonly write: (line: string) => Promise<void>) {}

  private async line(text: string): Promise<void> {
    const line = `${text}\n`;
    this.total.update(line);
    await this.write(line);
  }

  header(header: Omit<BackupHeader, "$" | "format">): Promise<void> {
    return this.line(JSON.stringify({ $: BACKUP_MAGIC, format: BACKUP_FORMAT, ...header }));
  }

  async startTable(name: string, columns: string[]): Promise<void> {
    this.table = { name, rows: 0, hash: crypto.createHash("sha256") };
    await this.line(JSON.stringify({ $: "table", name, columns } satisfies TableStart));
  }

  /** One row as PostgreSQL's to_jsonb wrote it (one line: JSON escapes every line break). */
  async row(json: string): Promise<void> {
    if (!this.table) throw new Error("a row outside a table");
    this.table.rows++;
    this.table.hash.update(`${json}\n`);
    await this.line(json);
  }

  async endTable(): Promise<void> {
    if (!this.table) throw new Error("no table to end");
    const end = { name: this.table.name, rows: this.table.rows, sha256: this.table.hash.digest("hex") };
    this.tables.push(end);
    this.table = null;
    await this.line(JSON.stringify({ $: "end", ...end } satisfies TableEnd));
  }

  sequences(values: SequenceValue[]): Promise<void> {
    return this.line(JSON.stringify({ $: "sequences", values } satisfies Sequences));
  }

  /** The last line; returns it as written. */
  async finish(): Promise<Manifest> {
    const manifest: Manifest = { $: "manifest", tables: this.tables, sha256: this.total.digest("hex") };
    await this.write(`${JSON.stringify(manifest)}\n`);
    return manifest;
  }
}

export type BackupEvent =
  | { kind: "header"; header: BackupHeader }
  | { kind: "table"; table: TableStart }
  | { kind: "rows"; table: string; rows: string[]; bytes: number }
  | { kind: "end"; end: TableEnd }
  | { kind: "sequences"; sequences: Sequences }
  | { kind: "manifest"; manifest: Manifest };

/** Rows handed on together: about this many bytes of JSON (or `ROW_BATCH` rows) at a time. */
const BATCH_BYTES = 4 * 1024 * 1024;
const ROW_BATCH = 1000;

function parseControl<T>(line: string, lineNo: number): T {
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new BackupError(`The backup is damaged: line ${lineNo} is not JSON.`);
  }
}

/**
 * Reads a backup file and checks it as it goes: the header first, every table's count and hash at
 * its end, the whole file's hash at the manifest, nothing after it. Rows come in batches of raw
 * JSON lines (unparsed: a restore hands them to PostgreSQL as they are). Throws BackupError at the
 * first thing that does not hold; the consumer (a restore) rolls back.
 */
export async function* readBackup(file: string): AsyncGenerator<BackupEvent> {
  let input: fs.ReadStream;
  try {
    fs.accessSync(file, fs.constants.R_OK);
    input = fs.createReadStream(file);
  } catch {
    throw new BackupError(`Cannot read the backup file ${file}.`);
  }
  const gunzip = zlib.createGunzip();
  input.on("error", (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  const lines = readline.createInterface({ input: gunzip, crlfDelay: Number.POSITIVE_INFINITY });
  const total = crypto.createHash("sha256");
  let lineNo = 0;
  let header: BackupHeader | null = null;
  let table: { start: TableStart; rows: number; hash: crypto.Hash } | null = null;
  let batch: string[] = [];
  let batchBytes = 0;
  let manifest: Manifest | null = null;
  const ends: TableEnd[] = [];
  try {
    for await (const line of lines) {
      lineNo++;
      if (manifest) throw new BackupError("The backup is damaged: there is data after its manifest.");
      if (!header) {
        const parsed = parseControl<Partial<BackupHeader>>(line, lineNo);
        if (parsed.$ !== BACKUP_MAGIC) throw new BackupError(`${file} is not a CareCampus backup.`);
        if (parsed.format !== BACKUP_FORMAT) {
          throw new BackupError(
            `The backup has format ${parsed.format}; this CareCampus reads format ${BACKUP_FORMAT}. Use a matching version.`,
          );
        }
        header = parsed as BackupHeader;
        total.update(`${line}\n`);
        yield { kind: "header", header };
        continue;
      }
      if (!line.startsWith(CONTROL)) {
        if (!table) throw new BackupError(`The backup is damaged: line ${lineNo} is a row outside a table.`);
        table.rows++;
        table.hash.update(`${line}\n`);
        total.update(`${line}\n`);
        batch.push(line);
        batchBytes += line.length;
        if (batchBytes >= BATCH_BYTES || batch.length >= ROW_BATCH) {
          yield { kind: "rows", table: table.start.name, rows: batch, bytes: batchBytes };
          batch = [];
          batchBytes = 0;
        }
        continue;
      }
      const control = parseControl<{ $: string }>(line, lineNo);
      if (control.$ === "manifest") {
        manifest = control as Manifest;
        if (table) throw new BackupError(`The backup is damaged: table ${table.start.name} has no end.`);
        if (manifest.sha256 !== total.digest("hex")) {
          throw new BackupError("The backup is damaged: its checksum does not match its content.");
        }
        const listed = JSON.stringify(manifest.tables);
        if (listed !== JSON.stringify(ends.map(({ $: _, ...end }) => end))) {
          throw new BackupError("The backup is damaged: its manifest does not list the tables it holds.");
        }
        yield { kind: "manifest", manifest };
        continue;
      }
      total.update(`${line}\n`);
      if (control.$ === "table") {
        if (table) throw new BackupError(`The backup is damaged: table ${table.start.name} has no end.`);
        table = { start: control as TableStart, rows: 0, hash: crypto.createHash("sha256") };
        yield { kind: "table", table: table.start };
      } else if (control.$ === "end") {
        const end = control as TableEnd;
        if (!table || end.name !== table.start.name) throw new BackupError(`The backup is damaged at line ${lineNo}.`);
        if (batch.length > 0) {
          yield { kind: "rows", table: table.start.name, rows: batch, bytes: batchBytes };
          batch = [];
          batchBytes = 0;
        }
        if (end.rows !== table.rows || end.sha256 !== table.hash.digest("hex")) {
          throw new BackupError(`The backup is damaged: the rows of table ${end.name} do not match their checksum.`);
        }
        ends.push(end);
        table = null;
        yield { kind: "end", end };
      } else if (control.$ === "sequences") {
        yield { kind: "sequences", sequences: control as Sequences };
      } else {
        throw new BackupError(`The backup is damaged: line ${lineNo} is of an unknown kind.`);
      }
    }
  } catch (err) {
    if (err instanceof BackupError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? "";
    if (code.startsWith("Z_")) {
      throw new BackupError(
        `${file} is damaged or no CareCampus backup: ${(err as Error).message} (not a complete gzip file).`,
      );
    }
    throw err;
  } finally {
    lines.close();
    input.destroy();
  }
  if (!header) throw new BackupError(`${file} is empty or not a CareCampus backup.`);
  if (!manifest) throw new BackupError("The backup is incomplete: it ends before its manifest (cut off?).");
}

/** Reads a whole backup, checking every hash: its header and manifest, or a BackupError. */
export async function checkBackup(file: string): Promise<{ header: BackupHeader; manifest: Manifest }> {
  let header: BackupHeader | null = null;
  let manifest: Manifest | null = null;
  for await (const event of readBackup(file)) {
    if (event.kind === "header") header = event.header;
    else if (event.kind === "manifest") manifest = event.manifest;
  }
  if (!header || !manifest) throw new BackupError("The backup is incomplete.");
  return { header, manifest };
}
