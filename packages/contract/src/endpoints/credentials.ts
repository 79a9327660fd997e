import { z } from "zod";
import { Id } from "../schemas/common";
import { AUTHED, type EndpointSpec, TokenQuery } from "./common";

/** POST /api/public/verify: each check of an uploaded credential, and valid when all hold. */
export const CredentialCheck = z
  .object({
    valid: z.boolean(),
    checks: z.object({
      /** The Data Integrity proof (eddsa-rdfc-2022) over the document as uploaded. */
      signature: z.enum(["ok", "failed"]),
      /** Issued by this installation's did:web with one of its keys. */
      issuer: z.enum(["ok", "unknown"]),
      /** validFrom ≤ now < validUntil. */
      validity: z.enum(["ok", "expired", "not_yet_valid", "failed"]),
      /** The revocation bit in this installation's status list (a revoked credential still has a good signature). */
      status: z.enum(["ok", "revoked", "unknown"]),
    }),
    training: z.string().nullable(),
    valid_from: z.string().nullable(),
    valid_until: z.string().nullable(),
  })
  .meta({ id: "CredentialCheck" });
export type CredentialCheck = z.infer<typeof CredentialCheck>;

/** A JSON-LD document as signed (a credential, a status list credential). */
const JsonLd = z.record(z.string(), z.unknown());

/** Verifiable credentials, Open Badges 3.0 (server: credentials/). */
export const credentialEndpoints = {
  credentialGet: {
    method: "GET",
    path: "/certificates/:id/credential",
    params: z.object({ id: Id }).strict(),
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["certificates"],
    description:
      "A certificate's signed Open Badges 3.0 credential (JSON-LD, eddsa-rdfc-2022), when VERIFIABLE_CREDENTIALS is on: owner or staff in scope.",
  },
  credentialList: {
    method: "GET",
    path: "/users/:id/credentials",
    params: z.object({ id: Id }).strict(),
    response: z.object({ certificates: z.array(z.number().int()) }).strict(),
    errors: AUTHED,
    tags: ["certificates"],
    description: "The ids of a user's certificates that have a signed credential to download.",
  },
  credentialStatusList: {
    method: "GET",
    path: "/public/status/:list",
    params: z.object({ list: Id }).strict(),
    response: JsonLd,
    errors: [400, 404],
    tags: ["public"],
    description: "A signed BitstringStatusListCredential (purpose revocation); no login.",
  },
  credentialVerify: {
    method: "POST",
    path: "/public/verify",
    body: JsonLd,
    response: CredentialCheck,
    errors: [400, 404, 413, 429],
    tags: ["public"],
    description:
      "Checks a credential (JSON body, or a multipart upload in the field `credential`): signature, issuer, validity, revocation status; no login.",
  },
} as const satisfies Record<string, EndpointSpec>;
