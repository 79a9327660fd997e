/*
 * Certificates as an inspector sees them (issue 29): the status a verification answers with and
 * the reasons a certificate can be revoked for. Revocation is a state, never a deletion.
 */

/** What GET /api/public/verify/{code} and /v/{code} say of a certificate (unknown codes are 404). */
export const CERTIFICATE_STATUSES = ["valid", "expired", "revoked", "replaced"] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** Why staff revoke a certificate. */
export const REVOCATION_REASONS = ["issued_in_error", "obtained_improperly", "other"] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];
