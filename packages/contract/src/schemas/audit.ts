import { z } from "zod";
import { AUDIT_KINDS } from "../rules/audit";
import { Id } from "./common";

const AuditKindSchema = z.enum(AUDIT_KINDS);

/** One entry of the audit trail as GET /audit answers it. */
export const AuditEntry = z
  .object({
    id: z.number().int(),
    /** ISO instant. */
    at: z.string(),
    kind: AuditKindSchema,
    actor: z
      .object({
        id: z.number().int().nullable(),
        /** The actor's role at the time, or 'system'. */
        role: z.string(),
        /** As recorded; null once the person was erased or for the system. */
        name: z.string().nullable(),
      })
      .strict(),
    facility: z.object({ id: z.number().int(), name: z.string().nullable() }).strict().nullable(),
    subject: z.object({ id: z.number().int(), name: z.string().nullable() }).strict().nullable(),
    /** What changed: ids, fields, counts, before and after where it matters. */
    data: z.record(z.string(), z.unknown()),
  })
  .strict()
  .meta({ id: "AuditEntry" });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = z
  .object({
    entries: z.array(AuditEntry),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .strict()
  .meta({ id: "AuditPage" });
export type AuditPage = z.infer<typeof AuditPage>;

/** GET /audit/verify: is the hash chain intact, and where it breaks first. */
export const AuditVerification = z
  .object({ intact: z.boolean(), entries: z.number().int(), first_broken: z.number().int().nullable() })
  .strict()
  .meta({ id: "AuditVerification" });
export type AuditVerification = z.infer<typeof AuditVerification>;

/** A calendar day YYYY-MM-DD (the configured time zone's). */
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");

/** GET /audit: the filters (all optional) and the page; `from` and `to` are days, both included. */
export const AuditQuery = z
  .object({
    /** Entries whose actor or subject is this person. */
    user: Id.optional(),
    kind: AuditKindSchema.optional(),
    from: Day.optional(),
    to: Day.optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
  })
  .strict();
export type AuditQuery = z.infer<typeof AuditQuery>;

/** GET /audit?format=csv: the same filters, every matching entry as CSV; a download (token in the query). */
export const AuditExportQuery = AuditQuery.omit({ page: true })
  .extend({ format: z.literal("csv"), token: z.string().optional() })
  .strict();
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;
