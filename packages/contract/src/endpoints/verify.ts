import { PublicVerification, VerifyParams } from "../schemas/verify";
import type { EndpointSpec } from "./common";

/** The public verification of a certificate, no login (server: verify/; the pages /v and /v/{code} beside it). */
export const verifyEndpoints = {
  publicVerify: {
    method: "GET",
    path: "/public/verify/:code",
    params: VerifyParams,
    response: PublicVerification,
    errors: [400, 404, 429],
    tags: ["verify"],
    description:
      "What a certificate's paper shows and its status (valid, expired, revoked, replaced), by its verification code as printed (spaces, dashes and lower case are fine; the 12-character codes of older certificates too). No login. Unknown codes: 404 (1011). VERIFY_RATE_PER_MINUTE calls a minute per IP, then 429 with Retry-After. The page for people is /v/{code}.",
  },
} as const satisfies Record<string, EndpointSpec>;
