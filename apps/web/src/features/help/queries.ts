import { api, mayOpenRoute, type Role, type TutorialAudience } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../api/client";

export const helpKeys = {
  all: ["help"] as const,
  list: (facility: number | null) => ["help", "list", facility ?? 0] as const,
  one: (id: number, facility: number | null) => ["help", "one", id, facility ?? 0] as const,
  fixes: ["help", "fixes"] as const,
  tutorial: (audience: TutorialAudience, language: string) => ["tutorial", audience, language] as const,
};

/** The open help requests within scope (a Super-Admin may narrow them to one facility). */
export const useHelpRequests = (facility: number | null, enabled = true) =>
  useQuery({
    queryKey: helpKeys.list(facility),
    queryFn: () => call(api.helpList, { query: { facility: facility ?? undefined } }),
    enabled,
  });

/** For the header's count: staff only, refreshed every few minutes and when the window is focused again. */
export const useOpenHelpCount = (roles: readonly Role[]) => {
  const staff = mayOpenRoute(roles, "helpRequests");
  const query = useQuery({
    queryKey: helpKeys.list(null),
    queryFn: () => call(api.helpList, { query: {}, silent: true }),
    enabled: staff,
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
  });
  return staff ? (query.data?.length ?? 0) : 0;
};

export const useHelpRequest = (id: number, facility: number | null) =>
  useQuery({
    queryKey: helpKeys.one(id, facility),
    queryFn: () => call(api.helpGet, { params: { id }, query: { facility: facility ?? undefined } }),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });

export const useContentFixes = (enabled: boolean) =>
  useQuery({ queryKey: helpKeys.fixes, queryFn: () => call(api.contentFixList), enabled });

export const useTutorial = (audience: TutorialAudience, language: string) =>
  useQuery({
    queryKey: helpKeys.tutorial(audience, language),
    queryFn: () => call(api.tutorial, { query: { Role: audience, lang: language } }),
    staleTime: 10 * 60_000,
  });
