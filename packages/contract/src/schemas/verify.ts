import { z } from "zod";
import { CERTIFICATE_STATUSES } from "../rules/certificate-status";
import { MAX_TYPED_CODE } from "../rules/verification-code";

/** A verification code as typed or as the QR code's address carries it (rules/verification-code.ts). */
export const VerifyParams = z.object({ code: z.string().min(1).max(MAX_TYPED_CODE) }).strict();

/**
 * What the public verification says of a certificate (issue 29): only what the paper shows and
 * its status, never an e-mail, login, score or id. Instants are ISO 8601; the paper's days are
 * these instants' calendar days in the installation's TIME_ZONE.
 */
export const PublicVerification = z
  .object({
    /** The code as printed (new codes in groups: XXXX-XXXX-XXXX-XXXX-C). */
    code: z.string(),
    status: z.enum(CERTIFICATE_STATUSES),
    /** The holder's name as on the paper. */
    holder: z.string(),
    training: z.string(),
    topic: z.string(),
    /** The holder's facility as on the paper; null for staff of no facility. */
    facility: z.string().nullable(),
    issued_at: z.string(),
    valid_until: z.string(),
    /** revoked: the day it was revoked (YYYY-MM-DD in TIME_ZONE). */
    revoked_on: z.string().optional(),
    /** replaced: the newer certificate of the same person and training, until when it is valid. */
    replaced_by: z.object({ valid_until: z.string() }).strict().optional(),
  })
  .strict()
  .meta({ id: "PublicVerification" });
export type PublicVerification = z.infer<typeof PublicVerification>;
