import { z } from "zod";
import { EXPORT_CATEGORIES, PRIVACY_PARTS } from "../rules/privacy";
import { BodyId } from "./common";

/**
 * The answer to an erasure request (GDPR Art. 17): what went at once, what is kept, on which
 * ground and until when. The web app says it in plain words.
 */
export const ErasureAnswer = z
  .object({
    user_id: BodyId,
    /** erased: nothing had to be kept, the person is erased now; partial: what could go went, the record stays. */
    outcome: z.enum(["erased", "partial"]),
    /** What was erased at once. */
    erased: z.array(z.enum(PRIVACY_PARTS)),
    /** What is kept (the parts of the export that stay). */
    kept: z.array(z.enum(EXPORT_CATEGORIES)),
    /**
     * Why it is kept: training-record: the facility's legal duty to prove mandatory trainings
     * (Art. 17(3)(b) GDPR); employment: the person still works there and uses the account.
     */
    grounds: z.array(z.enum(["training-record", "employment"])),
    /** The last day the kept record is held (YYYY-MM-DD); null while the person still works there. */
    kept_until: z.string().nullable(),
    /** RETENTION_YEARS: counted from the end of the year they left or their last certificate expired, the later. */
    retention_years: z.number().int(),
  })
  .strict()
  .meta({ id: "ErasureAnswer" });
export type ErasureAnswer = z.infer<typeof ErasureAnswer>;
