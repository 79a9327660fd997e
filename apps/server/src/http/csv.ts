/**
 * A CSV field as the downloads write it (the audit trail's, a training's translations): quoted
 * when it holds the separator, a quote or a line break; a text a spreadsheet would run as a
 * formula (=, +, -, @, tab, carriage return first) gets a leading apostrophe (OWASP).
 * `fromCsvField` takes that apostrophe off again when such a file comes back.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (typeof value === "string" && FORMULA.test(s)) s = `'${s}`;
  return /[;"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const FORMULA = /^[=+\-@\t\r]/;

/** A field of a file csvField wrote, read back: without the apostrophe that kept a formula a text. */
export function fromCsvField(cell: string): string {
  return cell.startsWith("'") && FORMULA.test(cell.slice(1)) ? cell.slice(1) : cell;
}
