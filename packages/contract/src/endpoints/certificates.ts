import { z } from "zod";
import { REVOCATION_REASONS } from "../rules/certificate-status";
import { Id, IdParams, Text } from "../schemas/common";
import { CertificateRevocation } from "../schemas/learning";
import { AUTHED, type EndpointSpec, WRITES } from "./common";

export const CertificateQuery = z
  .object({
    id: Id,
    token: z.string().optional(),
    /** partner: the id is a partner course's certificate (schemas/partner-courses.ts). */
    source: z.enum(["partner"]).optional(),
  })
  .strict();

/** The longest note staff may give with a revocation. */
export const REVOKE_NOTE_MAX = 500;

/** POST /certificates/{id}/revoke: why (REVOCATION_REASONS) and, optionally, a note in staff's words. */
export const CertificateRevoke = z
  .object({ reason: z.enum(REVOCATION_REASONS), note: Text(REVOKE_NOTE_MAX).optional() })
  .strict()
  .meta({ id: "CertificateRevoke" });
export type CertificateRevoke = z.infer<typeof CertificateRevoke>;

export const RevokedCertificate = z
  .object({ id: z.number().int(), revoked: CertificateRevocation })
  .meta({ id: "RevokedCertificate" });
export type RevokedCertificate = z.infer<typeof RevokedCertificate>;

/** Certificates (server: certificates/). */
export const certificateEndpoints = {
  certificatePdf: {
    method: "GET",
    path: "/progress/export/certificate",
    query: CertificateQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["certificates"],
    description:
      "A certificate as PDF (opened in a new tab, the token in the query); a revoked one is still " +
      "downloadable for the record, stamped REVOKED with the day.",
  },
  certificateRevoke: {
    method: "POST",
    path: "/certificates/:id/revoke",
    params: IdParams,
    body: CertificateRevoke,
    response: RevokedCertificate,
    errors: WRITES,
    tags: ["certificates"],
    description:
      "Revokes a certificate (superusers and Super-Admins everywhere, administrators their facility; " +
      "former employees' too): it stays in the history, marked, and counts nowhere any more; the holder " +
      "is notified. 403 for other roles, 1011 for an unknown certificate or one of another facility, " +
      "409 (1105) when it is revoked already.",
  },
} as const satisfies Record<string, EndpointSpec>;
