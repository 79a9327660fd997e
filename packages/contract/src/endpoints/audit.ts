import { AuditExportQuery, AuditPage, AuditQuery, AuditVerification } from "../schemas/audit";
import { AUTHED, type EndpointSpec } from "./common";

/** What the two calls on GET /audit share (endpoints.ts: sharedRoutes): the page and its CSV. */
export const auditGet = {
  method: "GET",
  path: "/audit",
  errors: AUTHED,
  tags: ["audit"],
} as const;

/** The audit trail (issue 28, decision 21; server: audit/routes.ts). */
export const auditEndpoints = {
  auditList: {
    ...auditGet,
    query: AuditQuery,
    response: AuditPage,
    description:
      "The audit trail, newest first, a page at a time: superusers every entry, administrators their facility's. " +
      "Filters: user (actor or subject), kind, from/to (days).",
  },
  auditExport: {
    ...auditGet,
    query: AuditExportQuery,
    kind: "download",
    description: "format=csv: every entry matching the filters as CSV (UTF-8 with BOM, semicolons).",
  },
  auditVerify: {
    method: "GET",
    path: "/audit/verify",
    response: AuditVerification,
    errors: AUTHED,
    tags: ["audit"],
    description: "Superusers: whether the hash chain of the audit trail is intact, and its first broken entry.",
  },
} as const satisfies Record<string, EndpointSpec>;
