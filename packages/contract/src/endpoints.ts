import { z } from "zod";
import { accountEndpoints } from "./endpoints/account";
import { assignmentEndpoints } from "./endpoints/assignments";
import { auditEndpoints, auditGet } from "./endpoints/audit";
import { authEndpoints } from "./endpoints/auth";
import { authoringEndpoints } from "./endpoints/authoring";
import { calendarEndpoints } from "./endpoints/calendar";
import { certificateEndpoints } from "./endpoints/certificates";
import type { EndpointSpec } from "./endpoints/common";
import { contentEndpoints } from "./endpoints/content";
import { credentialEndpoints } from "./endpoints/credentials";
import { evidenceEndpoints, evidenceGet } from "./endpoints/evidence";
import { facilityEndpoints } from "./endpoints/facilities";
import { fileEndpoints } from "./endpoints/files";
import { helpEndpoints, tutorialEndpoints } from "./endpoints/help";
import { homeEndpoints } from "./endpoints/home";
import { learningEndpoints } from "./endpoints/learning";
import { notificationEndpoints } from "./endpoints/notifications";
import { overviewEndpoints } from "./endpoints/overview";
import { partnerCourseEndpoints } from "./endpoints/partner-courses";
import { preferenceEndpoints } from "./endpoints/preferences";
import { privacyEndpoints } from "./endpoints/privacy";
import { qualificationEndpoints } from "./endpoints/qualifications";
import { systemEndpoints } from "./endpoints/system";
import { adminUsersPost, userEndpoints } from "./endpoints/users";
import { verifyEndpoints } from "./endpoints/verify";
import { wikiEndpoints } from "./endpoints/wiki";
import { AdminUser, ImportQuery, ImportResult, ImportUsers, UserCreate } from "./schemas/admin";
import { AuditExportQuery, AuditPage, AuditQuery } from "./schemas/audit";
import { ErrorBody } from "./schemas/error-body";
import { EvidenceExportQuery, EvidenceQuery, EvidenceReport } from "./schemas/evidence";

export { CertificateQuery, CertificateRevoke, REVOKE_NOTE_MAX, RevokedCertificate } from "./endpoints/certificates";
export type { EndpointSpec, HttpMethod } from "./endpoints/common";
export { MediaParams } from "./endpoints/common";
export { CredentialCheck } from "./endpoints/credentials";
export { IconParams } from "./endpoints/files";
export { ExternalUserParams } from "./endpoints/qualifications";

export type Endpoint = EndpointSpec & { readonly name: string; readonly kind: "json" | "download" | "redirect" };

/*
 * Each feature's calls are in endpoints/<feature>.ts, what they share in endpoints/common.ts.
 * The order of the spreads is the order of the table's keys and of the generated api-table.ts
 * (api.test.ts compares them in order), so moving a spread rewrites that file: that is why the
 * tutorial stands apart from the rest of help. endpoints.test.ts checks that each file's calls
 * are here, each once (a later spread would silently replace a call of the same name).
 * The OpenAPI document lists its components in the order their schema modules first load,
 * which these imports decide: changing them may reorder those keys, nothing else.
 */
const table = {
  ...systemEndpoints,
  ...authEndpoints,
  ...accountEndpoints,
  ...preferenceEndpoints,
  ...notificationEndpoints,
  ...learningEndpoints,
  ...authoringEndpoints,
  ...helpEndpoints,
  ...calendarEndpoints,
  ...tutorialEndpoints,
  ...contentEndpoints,
  ...certificateEndpoints,
  ...overviewEndpoints,
  ...partnerCourseEndpoints,
  ...fileEndpoints,
  ...userEndpoints,
  ...facilityEndpoints,
  ...assignmentEndpoints,
  ...qualificationEndpoints,
  ...wikiEndpoints,
  ...privacyEndpoints,
  ...auditEndpoints,
  ...credentialEndpoints,
  ...verifyEndpoints,
  ...evidenceEndpoints,
  ...homeEndpoints,
} as const satisfies Record<string, EndpointSpec>;

type Table = typeof table;
type Named<K extends string, S> = S & {
  readonly name: K;
  readonly kind: S extends { kind: "download" } ? "download" : S extends { kind: "redirect" } ? "redirect" : "json";
};

/** The endpoint table: every call of the API under API_PREFIX, by name. */
export const endpoints = Object.fromEntries(
  Object.entries(table).map(([name, spec]) => [name, { ...spec, name, kind: "kind" in spec ? spec.kind : "json" }]),
) as { readonly [K in keyof Table & string]: Named<K, Table[K]> };

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/**
 * Calls that share one route (spec §7: POST /auth/admin/users creates a user from an object and
 * imports users from an array). The server registers these; the client calls the variants.
 */
export const sharedRoutes = {
  adminUsersPost: {
    ...adminUsersPost,
    name: "adminUsersPost",
    kind: "json",
    query: ImportQuery,
    body: z.union([UserCreate, ImportUsers]),
    response: z.union([AdminUser, ImportResult]),
    description: `${endpoints.adminUserCreate.description} ${endpoints.adminUserImport.description}`,
    variants: ["adminUserCreate", "adminUserImport"],
  },
  auditGet: {
    ...auditGet,
    name: "auditGet",
    kind: "json",
    query: z.union([AuditQuery, AuditExportQuery]),
    response: AuditPage,
    description: `${endpoints.auditList.description} ${endpoints.auditExport.description}`,
    variants: ["auditList", "auditExport"],
  },
  evidenceGet: {
    ...evidenceGet,
    name: "evidenceGet",
    kind: "json",
    query: z.union([EvidenceQuery, EvidenceExportQuery]),
    response: EvidenceReport,
    description: `${endpoints.evidenceReport.description} ${endpoints.evidenceExport.description}`,
    variants: ["evidenceReport", "evidenceExport"],
  },
} as const satisfies Record<string, Endpoint & { variants: readonly EndpointName[] }>;

/** Every route the server registers: each endpoint, a shared route in place of its variants. */
export function registeredRoutes(): Endpoint[] {
  const shared: Endpoint[] = Object.values(sharedRoutes);
  const variants = new Set<string>(Object.values(sharedRoutes).flatMap((r) => r.variants));
  return [...shared, ...Object.values(endpoints as Record<string, Endpoint>).filter((e) => !variants.has(e.name))];
}

/* ---------- types of a call ---------- */

type Out<E, K extends string> = E extends { readonly [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;
export type ParamsOf<E> = Out<E, "params">;
export type QueryOf<E> = Out<E, "query">;
export type BodyOf<E> = Out<E, "body">;
export type ResponseOf<E> = Out<E, "response">;

/** The ErrorBody every error status of an endpoint answers with. */
export function errorResponses(endpoint: Pick<Endpoint, "errors" | "errorBodies">): Record<number, z.ZodType> {
  const out: Record<number, z.ZodType> = {};
  for (const status of endpoint.errors) out[status] = ErrorBody;
  return { ...out, ...endpoint.errorBodies };
}
