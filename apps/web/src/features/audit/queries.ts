import { type AuditKind, api } from "@carecampus/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { call } from "../../api/client";

/** The filter of /audit, as the URL and GET /audit carry it. */
export interface AuditFilter {
  user?: number | undefined;
  kind?: AuditKind | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const auditKeys = {
  page: (filter: AuditFilter, page: number) => ["audit", "page", filter, page] as const,
  verify: ["audit", "verify"] as const,
  people: (query: string) => ["audit", "people", query] as const,
};

export const useAuditPage = (filter: AuditFilter, page: number) =>
  useQuery({
    queryKey: auditKeys.page(filter, page),
    queryFn: ({ signal }) => call(api.auditList, { query: { ...filter, page }, signal }),
    // The page stays while the next one loads: the list does not jump.
    placeholderData: keepPreviousData,
  });

/** The chain's check: superusers only; it reads the whole trail, so it runs once per visit. */
export const useAuditVerification = (enabled: boolean) =>
  useQuery({ queryKey: auditKeys.verify, queryFn: () => call(api.auditVerify), enabled, staleTime: 60_000 });

/** The people the caller may see, searched as /users searches them. */
export const usePeopleSearch = (query: string) =>
  useQuery({
    queryKey: auditKeys.people(query),
    queryFn: ({ signal }) => call(api.adminUserList, { query: { query: query || undefined }, signal }),
    enabled: query.trim().length > 0,
    placeholderData: keepPreviousData,
  });
