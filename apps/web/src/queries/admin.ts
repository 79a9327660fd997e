import { api, type Catalogue } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../api/client";

/** Lists the user administration and the progress overview both choose from. */
export const adminListKeys = {
  facilities: ["users", "facilities"] as const,
  catalogue: ["catalogue"] as const,
};

export const useFacilities = (enabled: boolean) =>
  useQuery({ queryKey: adminListKeys.facilities, queryFn: () => call(api.facilityList), enabled });

/** A topic and training a screen names (either may be left out), to find in the catalogue. */
export interface CatalogueEntry {
  topic?: number | null;
  training?: number | null;
}

/** Does the catalogue hold the named topic and training? Nothing named: yes. */
function catalogueHolds(catalogue: Catalogue, { topic, training }: CatalogueEntry): boolean {
  if (topic == null && training == null) return true;
  return catalogue.some(
    (t) => (topic == null || t.id === topic) && (training == null || t.trainings.some((x) => x.id === training)),
  );
}

/**
 * Every current topic with its trainings, kept ten minutes (it changes rarely). A screen that
 * names a topic or training from something newer than the kept list (the start page's rows, a
 * stored event, a link) finds the list stale when it does not hold that entry, so it is asked
 * again as the screen opens: a training someone added meanwhile shows in its choice instead of an
 * empty field. The answer is taken as it is (a retired training stays missing, asked once).
 */
export const useCatalogue = (named: CatalogueEntry = {}) =>
  useQuery({
    queryKey: adminListKeys.catalogue,
    queryFn: () => call(api.catalogue),
    staleTime: (query) => (query.state.data === undefined || catalogueHolds(query.state.data, named) ? 600_000 : 0),
  });
