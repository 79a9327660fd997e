import type { ErrorBody } from "./schemas/error-body";

/** Error codes of spec §8. The web client translates them; the server sends them. */
export const ErrorCode = {
  unexpected: -1,
  invalidCredentials: 1000,
  loginInUse: 1001,
  userNotFound: 1002,
  facilityNotFound: 1003,
  helpRequestNotFound: 1004,
  trainingNotFound: 1005,
  questionnaireNotFound: 1006,
  questionNotFound: 1007,
  answerNotOfQuestion: 1008,
  imageNotFound: 1009,
  sessionExpired: 1010,
  certificateNotFound: 1011,
  maxUsersReached: 1012,
  maxFacilitiesReached: 1013,
  facilityRequired: 1014,
  notAllowedToSeeEmployees: 1015,
  adminDoesNotExist: 1016,
  // Codes beyond the catalogue for generic HTTP failures (validation, forbidden, …).
  validation: 1100,
  forbidden: 1101,
  notFound: 1102,
  payloadTooLarge: 1103,
  rateLimited: 1104,
  conflict: 1105,
  malformedJson: 1106,
  /** The partner provider of external courses did not answer, too late or with garbage. */
  partnerUnavailable: 1107,
  /** The database could not do the work in time (a lock not had, a statement cancelled): try again. */
  busy: 1108,
  /** The installation's stored media would pass MEDIA_QUOTA_MB: delete media or raise the quota. */
  mediaQuotaExceeded: 1109,
  /** A machine's translation suggestion was asked for, but the installation has no service (MACHINE_TRANSLATION_URL). */
  machineTranslationOff: 1110,
  /** The machine translation service did not answer, too late or with garbage. */
  machineTranslationUnavailable: 1111,
  /** Single sign-on (issue 32): the identity provider did not answer, or not in time. */
  ssoUnavailable: 1112,
  /** Single sign-on: the provider's answer does not belong to a login begun here (state, code, an error it sent). */
  ssoRefused: 1113,
  /** Single sign-on: the provider's ID token failed a check (issuer, audience, signature, nonce, expiry). */
  ssoTokenInvalid: 1114,
  /** Single sign-on: no CareCampus account may be used or created for this person; their administrator can help. */
  ssoNoAccount: 1115,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The HTTP status each code answers with. */
export const errorStatus: Record<ErrorCode, number> = {
  [ErrorCode.unexpected]: 500,
  [ErrorCode.invalidCredentials]: 401,
  [ErrorCode.loginInUse]: 409,
  [ErrorCode.userNotFound]: 404,
  [ErrorCode.facilityNotFound]: 404,
  [ErrorCode.helpRequestNotFound]: 404,
  [ErrorCode.trainingNotFound]: 404,
  [ErrorCode.questionnaireNotFound]: 404,
  [ErrorCode.questionNotFound]: 404,
  [ErrorCode.answerNotOfQuestion]: 400,
  [ErrorCode.imageNotFound]: 404,
  [ErrorCode.sessionExpired]: 401,
  [ErrorCode.certificateNotFound]: 404,
  [ErrorCode.maxUsersReached]: 409,
  [ErrorCode.maxFacilitiesReached]: 409,
  [ErrorCode.facilityRequired]: 400,
  [ErrorCode.notAllowedToSeeEmployees]: 403,
  [ErrorCode.adminDoesNotExist]: 404,
  [ErrorCode.validation]: 400,
  [ErrorCode.forbidden]: 403,
  [ErrorCode.notFound]: 404,
  [ErrorCode.payloadTooLarge]: 413,
  [ErrorCode.rateLimited]: 429,
  [ErrorCode.conflict]: 409,
  [ErrorCode.malformedJson]: 400,
  [ErrorCode.partnerUnavailable]: 502,
  [ErrorCode.busy]: 503,
  [ErrorCode.mediaQuotaExceeded]: 413,
  [ErrorCode.machineTranslationOff]: 409,
  [ErrorCode.machineTranslationUnavailable]: 502,
  [ErrorCode.ssoUnavailable]: 503,
  [ErrorCode.ssoRefused]: 400,
  [ErrorCode.ssoTokenInvalid]: 401,
  [ErrorCode.ssoNoAccount]: 403,
};

/**
 * The spec §8 error body, as its schema (schemas/error-body.ts) accepts it, checked without zod:
 * the web client reads every failed answer with it, on the login too (error-body.test.ts keeps
 * the two in step).
 */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { error_code, message, status_code } = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(error_code) &&
    Number.isSafeInteger(status_code) &&
    (message === undefined || typeof message === "string")
  );
}
