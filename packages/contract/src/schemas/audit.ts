import { z } from "zod";
import { AUDIT_KINDS } from "../rules/audit";

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
