import { EvidenceExportQuery, EvidenceQuery, EvidenceReport } from "../schemas/evidence";
import { AUTHED, type EndpointSpec } from "./common";

/** What the three calls on GET /evidence share (endpoints.ts: sharedRoutes): the answer and its files. */
export const evidenceGet = {
  method: "GET",
  path: "/evidence",
  errors: AUTHED,
  tags: ["evidence"],
} as const;

/** The facility's evidence at a date (issue 29; server: evidence/routes.ts). */
export const evidenceEndpoints = {
  evidenceReport: {
    ...evidenceGet,
    query: EvidenceQuery,
    response: EvidenceReport,
    description:
      "Staff: for each training of the facility (optionally only the trainings or topics named), who was required " +
      "to hold it on the day (the training matrix as it was then, people since archived included), who held a " +
      "valid, unrevoked certificate then (with its code), who did not, and the rate; plus the day from which the " +
      "history is exact.",
  },
  evidenceExport: {
    ...evidenceGet,
    query: EvidenceExportQuery,
    kind: "download",
    description:
      "format=pdf: the same for an inspector as a PDF; format=xlsx: as a workbook (one row per person and training).",
  },
} as const satisfies Record<string, EndpointSpec>;
