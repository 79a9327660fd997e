import { api, type Catalogue } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
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
export function catalogueHolds(catalogue: Catalogue, { topic, training }: CatalogueEntry): boolean {
  if (topic == null && training == null) return true;
  return catalogue.some(
    (t) => (topic == null || t.id === topic) && (training == null || t.trainings.some((x) => x.id === training)),
  );
}

/**
 * Every current topic with its trainings, kept ten minutes (it changes rarely). A screen that
 * names a topic or training from something newer than the kept list (the start page's rows, a
 * stored event, a link) asks again once when the list, kept from before the screen opened, does
 * not hold it: a training someone added meanwhile shows in its choice instead of an empty field.
 * A list fetched since the screen opened is taken as it is (a retired training stays missing,
 * asked for once per opening). `missing`: the named entry is not there while that is still open.
 */
export function useCatalogue(named: CatalogueEntry = {}) {
  const catalogue = useQuery({
    queryKey: adminListKeys.catalogue,
    queryFn: () => call(api.catalogue),
    staleTime: 600_000,
  });
  const opened = useRef(Date.now());
  const lacks = catalogue.data !== undefined && !catalogueHolds(catalogue.data, named);
  const kept = catalogue.dataUpdatedAt < opened.current;
  const key = `${named.topic ?? ""}:${named.training ?? ""}`;
  const asked = useRef<string | null>(null);
  const { refetch, isFetching } = catalogue;
  useEffect(() => {
    if (!lacks || !kept || isFetching || asked.current === key) return;
    asked.current = key;
    void refetch();
  }, [lacks, kept, isFetching, key, refetch]);
  // Asked again and answered (or failed): what the list holds now is taken as it is.
  return { ...catalogue, missing: lacks && (isFetching || (kept && asked.current !== key)) };
}
