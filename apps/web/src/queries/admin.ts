import { api } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../api/client";

/** Lists the user administration and the progress overview both choose from. */
export const adminListKeys = {
  facilities: ["users", "facilities"] as const,
  catalogue: ["catalogue"] as const,
};

export const useFacilities = (enabled: boolean) =>
  useQuery({ queryKey: adminListKeys.facilities, queryFn: () => call(api.facilityList), enabled });

export const useCatalogue = () =>
  useQuery({
    queryKey: adminListKeys.catalogue,
    queryFn: () => call(api.catalogue),
    staleTime: 600_000,
  });
