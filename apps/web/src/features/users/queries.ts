import type {
  AdditionalQualification,
  AdminUser,
  AdminUserList,
  NamedItem,
  TrainingMatrix,
} from "@carecampus/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { adminListKeys } from "../../queries/admin";

export const userKeys = {
  all: ["users"] as const,
  list: (query: string) => ["users", "list", query] as const,
  one: (id: number) => ["users", "one", id] as const,
  facilities: adminListKeys.facilities,
  qualifications: ["users", "qualifications"] as const,
  activities: ["users", "activities"] as const,
};

/** Search: the signal cancels a search that a newer one has made obsolete (spec §7). */
export const useUserSearch = (query: string, enabled: boolean) =>
  useQuery({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) =>
      api<AdminUserList>(`/auth/admin/users${query ? `?query=${encodeURIComponent(query)}` : ""}`, { signal }),
    enabled,
    // The list stays while the next search runs: no flicker, expanded cards stay open.
    placeholderData: keepPreviousData,
  });

export const useAdminUser = (id: number | undefined) =>
  useQuery({
    queryKey: userKeys.one(id ?? 0),
    queryFn: () => api<AdminUser>(`/auth/admin/users/${id}`),
    enabled: id !== undefined,
  });

export const useQualifications = () =>
  useQuery({
    queryKey: userKeys.qualifications,
    queryFn: () => api<NamedItem[]>("/filter/list/qualification"),
    staleTime: 600_000,
  });

export const useActivities = () =>
  useQuery({
    queryKey: userKeys.activities,
    queryFn: () => api<NamedItem[]>("/filter/list/activityfocus"),
    staleTime: 600_000,
  });

export const useTrainingMatrix = (userId: number | undefined) =>
  useQuery({
    queryKey: ["users", "matrix", userId ?? 0],
    queryFn: () => api<TrainingMatrix>(`/filter/admin/trainingsmatrix/${userId}`),
    enabled: userId !== undefined,
  });

/** The additional qualifications a facility keeps (spec §3). */
export const useFacilityExtras = (facility: number | null) =>
  useQuery({
    queryKey: ["users", "extras", facility ?? 0],
    queryFn: () => api<AdditionalQualification[]>(`/external?facility=${facility}`),
    enabled: facility !== null,
  });

export const useUserExtras = (userId: number | undefined) =>
  useQuery({
    queryKey: ["users", "userExtras", userId ?? 0],
    queryFn: () => api<AdditionalQualification[]>(`/external/user/${userId}`),
    enabled: userId !== undefined,
  });
