import { IMPORT_FIELDS, IMPORT_MAX_ROWS, type ImportRow } from "@carecampus/contract";
import { type CsvEncoding, type Delimiter, decodeCsv, isCsvFileName, parseUserCsv } from "./csv";

/** A CSV file read and parsed, ready for the preview. */
export interface LoadedFile {
  name: string;
  encoding: CsvEncoding;
  delimiter: Delimiter;
  rows: ImportRow[];
  rowNumbers: number[];
}

/** Why a file cannot be imported: an i18n key under usersImport and its values. */
export interface FileProblem {
  key:
    | "onlyCsv"
    | "oneFile"
    | "tooLarge"
    | "unreadable"
    | "wrongEncoding"
    | "missingHeaders"
    | "empty"
    | "tooManyRows"
    | "badQuotes";
  values?: Record<string, string | number>;
}

/** Reads a picked file: extension, encoding, header and rows, in the order spec §5 lists the messages. */
export async function readUserCsv(file: File): Promise<{ file: LoadedFile } | { problem: FileProblem }> {
  if (!isCsvFileName(file.name)) return { problem: { key: "onlyCsv" } };
  const decoded = await decodeCsv(new Uint8Array(await file.arrayBuffer()));
  if ("error" in decoded) return { problem: { key: "wrongEncoding" } };
  const parsed = parseUserCsv(decoded.text);
  if ("error" in parsed) {
    switch (parsed.error) {
      case "missingHeaders":
        return {
          problem: {
            key: "missingHeaders",
            values: { fields: IMPORT_FIELDS.join(", "), missing: parsed.missing.join(", ") },
          },
        };
      case "tooManyRows":
        return { problem: { key: "tooManyRows", values: { max: IMPORT_MAX_ROWS } } };
      case "badQuotes":
        return { problem: { key: "badQuotes", values: { row: parsed.row } } };
      default:
        return { problem: { key: "empty" } };
    }
  }
  return { file: { name: file.name, encoding: decoded.encoding, ...parsed } };
}
