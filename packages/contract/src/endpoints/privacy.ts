import { UserIdParams } from "../schemas/auth";
import { ErasureAnswer } from "../schemas/privacy";
import { AUTHED, type EndpointSpec, TokenQuery, WRITES } from "./common";

/** Data protection (server: privacy/; web: features/account, features/users). */
export const privacyEndpoints = {
  accountExport: {
    method: "GET",
    path: "/account/export",
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["account"],
    description:
      "One's own data (GDPR Art. 15, 20) as a ZIP: data/<category>.json, a readable summary.html and the certificate PDFs.",
  },
  adminUserExport: {
    method: "GET",
    path: "/auth/admin/users/:id/export",
    params: UserIdParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["administration"],
    description: "The same ZIP for a person within the caller's scope, former employees included.",
  },
  accountErasureRequest: {
    method: "POST",
    path: "/account/erasure-request",
    response: ErasureAnswer,
    errors: WRITES,
    tags: ["account"],
    description:
      "One's own erasure request (GDPR Art. 17): erases at once what proves nothing, says what is kept, why and until when.",
  },
  adminUserErasure: {
    method: "POST",
    path: "/auth/admin/users/:id/erasure",
    params: UserIdParams,
    response: ErasureAnswer,
    errors: WRITES,
    tags: ["administration"],
    description:
      "An erasure request made for a person within the caller's scope, former employees included; the same answer.",
  },
} as const satisfies Record<string, EndpointSpec>;
