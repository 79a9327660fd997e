import { api } from "@carecampus/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { call } from "../../api/client";
import { adminListKeys } from "../../queries/admin";

export const userKeys = {
  all: ["users"] as const,
  list: (query: string) => ["users", "list", query] as const,
  former: (query: string) => ["users", "former", query] as const,
  one: (id: number) => ["users", "one", id] as const,
  facilities: adminListKeys.facilities,
  qualifications: ["users", "qualifications"] as const,
  activities: ["users", "activities"] as const,
};

/** Search: the signal cancels a search that a newer one has made obsolete (spec §7). */
export const useUserSearch = (query: string, enabled: boolean) =>
  useQuery({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => call(api.adminUserList, { query: { query: query || undefined }, signal }),
    enabled,
    // The list stays while the next search runs: no flicker, expanded cards stay open.
    placeholderData: keepPreviousData,
  });

/** Former employees (archived, issue 28) within the caller's scope, who left last first. */
export const useFormerUsers = (query: string, enabled: boolean) =>
  useQuery({
    queryKey: userKeys.former(query),
    queryFn: ({ signal }) => call(api.adminUserList, { query: { query: query || undefined, former: "true" }, signal }),
    enabled,
    placeholderData: keepPreviousData,
  });

export const useAdminUser = (id: number | undefined) =>
  useQuery({
    queryKey: userKeys.one(id ?? 0),
    queryFn: () => call(api.adminUserGet, { params: { id: id ?? 0 } }),
    enabled: id !== undefined,
  });

export const useQualifications = () =>
  useQuery({
    queryKey: userKeys.qualifications,
    queryFn: () => call(api.qualificationList),
    staleTime: 600_000,
  });

export const useActivities = () =>
  useQuery({
    queryKey: userKeys.activities,
    queryFn: () => call(api.activityList),
    staleTime: 600_000,
  });

export const useTrainingMatrix = (userId: number | undefined) =>
  useQuery({
    queryKey: ["users", "matrix", userId ?? 0],
    queryFn: () => call(api.trainingMatrixGet, { params: { user_id: userId ?? 0 } }),
    enabled: userId !== undefined,
  });

/** The additional qualifications a facility keeps (spec §3). */
export const useFacilityExtras = (facility: number | null) =>
  useQuery({
    queryKey: ["users", "extras", facility ?? 0],
    queryFn: () => call(api.externalList, { query: { facility: facility ?? undefined } }),
    enabled: facility !== null,
  });

export const useUserExtras = (userId: number | undefined) =>
  useQuery({
    queryKey: ["users", "userExtras", userId ?? 0],
    queryFn: () => call(api.externalUserGet, { params: { userId: userId ?? 0 } }),
    enabled: userId !== undefined,
  });
