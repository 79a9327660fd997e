import type { Catalogue, NamedItem } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/client";

/** Lists the user administration and the progress overview both choose from. */
export const adminListKeys = {
  facilities: ["users", "facilities"] as const,
  catalogue: ["catalogue"] as const,
};

export const useFacilities = (enabled: boolean) =>
  useQuery({ queryKey: adminListKeys.facilities, queryFn: () => api<NamedItem[]>("/auth/admin/facilities"), enabled });

export const useCatalogue = () =>
  useQuery({
    queryKey: adminListKeys.catalogue,
    queryFn: () => api<Catalogue>("/filter/list/topics"),
    staleTime: 600_000,
  });
