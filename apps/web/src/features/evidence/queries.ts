import { api } from "@carecampus/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { call } from "../../api/client";

/** What /evidence asks GET /evidence for (a list of ids goes out comma-separated: String([1, 2])). */
export interface EvidenceChoice {
  facility?: number | undefined;
  date: string;
  topics: number[];
  trainings: number[];
}

/** The query of GET /evidence (and of its files) for a choice. */
export function evidenceQuery(choice: EvidenceChoice) {
  return {
    facility: choice.facility,
    date: choice.date,
    topics: choice.topics.length > 0 ? choice.topics : undefined,
    trainings: choice.trainings.length > 0 ? choice.trainings : undefined,
  };
}

export const useEvidence = (choice: EvidenceChoice, enabled: boolean) =>
  useQuery({
    queryKey: ["evidence", choice],
    queryFn: ({ signal }) => call(api.evidenceReport, { query: evidenceQuery(choice), signal }),
    enabled,
    // The answer stays while the next one loads: the page does not jump.
    placeholderData: keepPreviousData,
  });
