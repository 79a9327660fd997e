import { z } from "zod";
import { Id } from "../schemas/common";
import { AUTHED, type EndpointSpec } from "./common";

export const CertificateQuery = z
  .object({
    id: Id,
    token: z.string().optional(),
    /** partner: the id is a partner course's certificate (schemas/partner-courses.ts). */
    source: z.enum(["partner"]).optional(),
  })
  .strict();

/** Certificates (server: certificates/). */
export const certificateEndpoints = {
  certificatePdf: {
    method: "GET",
    path: "/progress/export/certificate",
    query: CertificateQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["certificates"],
    description: "A certificate as PDF (opened in a new tab, the token in the query).",
  },
} as const satisfies Record<string, EndpointSpec>;
