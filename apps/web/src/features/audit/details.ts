import { AUDIT_ID_KEYS, type AuditEntry, formatDate, formatTime } from "@carecampus/contract";
import type { TFunction } from "i18next";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID_KEYS = new Set<string>(AUDIT_ID_KEYS);
/** Keys whose values are words the locales name (audit.value.<key>.<value>). */
const WORD_KEYS = new Set(["via", "by", "reason", "outcome", "item", "status"]);

/**
 * The lines of an entry's details in the reader's words: every data key named
 * (audit.field.<key>, else the key), roles, sources and states translated, ids as "No. 12"
 * (the entry's facility by its name), times in the configured zone, and before → after per field.
 */
export function detailLines(entry: AuditEntry, t: TFunction, zone: string): string[] {
  const field = (key: string) => t(`audit.field.${key}`, key);
  const value = (key: string, v: unknown): string => {
    if (v === null || v === undefined || v === "") return t("audit.nothing");
    if (typeof v === "boolean") return v ? t("audit.yes") : t("audit.no");
    if (Array.isArray(v)) return v.length === 0 ? t("audit.nothing") : v.map((item) => value(key, item)).join(", ");
    if (isRecord(v))
      return Object.entries(v)
        .map(([k, inner]) => `${field(k)}: ${value(k, inner)}`)
        .join("; ");
    if (typeof v === "number" && ID_KEYS.has(key)) {
      if (key === "facility" && entry.facility?.id === v && entry.facility.name) return entry.facility.name;
      return t("audit.number", { id: v });
    }
    if (typeof v === "string") {
      if (key === "roles") return t(`roles.${v}`, v);
      if (key === "fields") return field(v);
      if (key === "lang") return t(`wiki.languages.${v}`, v);
      // A revocation's reason in the words its dialog offers (revoke.reasons).
      if (key === "reason" && entry.kind === "certificate.revoked") return t(`revoke.reasons.${v}`, v);
      if (WORD_KEYS.has(key)) return t(`audit.value.${key}.${v}`, v);
      if (INSTANT.test(v)) return `${formatDate(v, zone)} ${formatTime(v, zone)}`;
      if (DAY.test(v)) return v.split("-").reverse().join(".");
    }
    return String(v);
  };
  const lines: string[] = [];
  const shown = new Set<string>();
  const pairs = (before: unknown, after: unknown) => {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
      shown.add(key);
      lines.push(t("audit.change", { field: field(key), before: value(key, b[key]), after: value(key, a[key]) }));
    }
  };
  const { before, after, personal, fields, ...rest } = entry.data;
  if (isRecord(before) || isRecord(after)) pairs(before, after);
  else if (before !== undefined || after !== undefined) {
    // A list before and after, without a field of its own: the trainings assigned (null: all
    // of them), the people present.
    const key = entry.kind === "matrix.changed" ? "assigned" : "present";
    const side = (v: unknown) => (v === null && key === "assigned" ? t("audit.all") : value(key, v));
    lines.push(t("audit.change", { field: field(key), before: side(before), after: side(after) }));
  }
  if (isRecord(personal)) pairs(personal.before, personal.after);
  // The changed fields only where no before → after line names them already.
  const restFields = Array.isArray(fields) ? fields.filter((f) => !shown.has(String(f))) : [];
  if (restFields.length > 0) lines.push(`${field("fields")}: ${value("fields", restFields)}`);
  for (const [key, v] of Object.entries(rest)) {
    // The entry's own facility stands above the details already.
    if (key === "facility" && v === entry.facility?.id) continue;
    lines.push(`${field(key)}: ${value(key, v)}`);
  }
  // Free text staff wrote beside a change (a revocation's note), shown as written, last.
  if (isRecord(personal) && typeof personal.note === "string" && personal.note !== "") {
    lines.push(`${t("revocationDetails.note")}: ${personal.note}`);
  }
  return lines;
}
