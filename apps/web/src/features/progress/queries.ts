import { api } from "@carecampus/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../api/client";

const overviewKey = (topicId: number | null, facility: string | null) => ["overview", topicId, facility] as const;

/** GET /progress/admin/topics/{topicId}[?facilityName=]. */
export const useTopicOverview = (topicId: number | null, facility: string | null) =>
  useQuery({
    queryKey: overviewKey(topicId, facility),
    queryFn: ({ signal }) =>
      call(api.overviewTopic, {
        params: { topicId: topicId ?? 0 },
        query: { facilityName: facility || undefined },
        signal,
      }),
    enabled: topicId !== null,
    placeholderData: keepPreviousData,
  });

/** Marks a passive training passed and refreshes every overview. */
export function useMarkPassive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { userId: number; topicId: number; trainingId: number }) =>
      call(api.passiveTrainingMark, {
        params: { id: v.userId },
        body: { topicID: v.topicId, trainingID: v.trainingId },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["overview"] }),
  });
}
