import { z } from "zod";
import { Id } from "./common";

/*
 * The facility's evidence at a date (issue 29): for each training, who was required to hold it
 * on that day (the training matrix as it was then), who held a valid certificate then and who
 * did not.
 */

/** The most trainings or topics one query names. */
export const EVIDENCE_MAX_IDS = 500;

/** A comma-separated list of ids ("3,7,12"): the query's trainings= and topics=. */
const IdList = z
  .string()
  .regex(/^\d{1,10}(,\d{1,10})*$/, "must be ids separated by commas")
  .transform((s) => [...new Set(s.split(",").map(Number))])
  .pipe(z.array(z.number().int().positive().max(2_147_483_647)).max(EVIDENCE_MAX_IDS));

/** GET /evidence: facility (staff bound to one: their own), day (default today), optional filters. */
export const EvidenceQuery = z
  .object({
    /** The facility's id; required for those who see every facility. */
    facility: Id.optional(),
    /** The day asked ("Stichtag"), YYYY-MM-DD in the configured time zone; default today. */
    date: z.string().optional(),
    /** Only these trainings (ids, comma-separated). */
    trainings: IdList.optional(),
    /** Only the trainings of these topics (ids, comma-separated). */
    topics: IdList.optional(),
  })
  .strict();
export type EvidenceQuery = z.infer<typeof EvidenceQuery>;

/** GET /evidence?format=pdf|xlsx: the same as a file; a download (token in the query). */
export const EvidenceExportQuery = EvidenceQuery.extend({
  format: z.enum(["pdf", "xlsx"]),
  token: z.string().optional(),
}).strict();
export type EvidenceExportQuery = z.infer<typeof EvidenceExportQuery>;

/** A certificate that proved the training on the day. */
export const EvidenceCertificate = z
  .object({
    code: z.string(),
    /** ISO instants. */
    acquired_at: z.string(),
    expires_at: z.string(),
  })
  .strict();

/** A person required to hold a training on the day. */
export const EvidencePerson = z
  .object({
    id: z.number().int(),
    name: z.string(),
    surname: z.string(),
    /** Archived since (a former employee): required then, no member now. */
    former: z.boolean(),
    /** The certificate valid on the day (the newest of them), or null: missing. */
    certificate: EvidenceCertificate.nullable(),
  })
  .strict();
export type EvidencePerson = z.infer<typeof EvidencePerson>;

export const EvidenceTraining = z
  .object({
    id: z.number().int(),
    name: z.string(),
    topic: z.object({ id: z.number().int(), name: z.string() }).strict(),
    required: z.number().int(),
    held: z.number().int(),
    /** held / required (0…1); null when nobody was required. */
    rate: z.number().nullable(),
    /** Those required, by surname and name. */
    people: z.array(EvidencePerson),
  })
  .strict();
export type EvidenceTraining = z.infer<typeof EvidenceTraining>;

export const EvidenceReport = z
  .object({
    facility: z.object({ id: z.number().int(), name: z.string() }).strict(),
    /** The day asked, YYYY-MM-DD. */
    date: z.string(),
    /** When this answer was made (ISO instant). */
    generated_at: z.string(),
    /**
     * The first day the matrix history records (YYYY-MM-DD): from it on the answer is exact;
     * before it, who had to hold what is today's assignment projected back. Null: no history yet.
     */
    exact_from: z.string().nullable(),
    /** The day asked lies before exact_from. */
    projected: z.boolean(),
    trainings: z.array(EvidenceTraining),
  })
  .strict()
  .meta({ id: "EvidenceReport" });
export type EvidenceReport = z.infer<typeof EvidenceReport>;
