import type { OverviewCell, TopicOverview } from "@carecampus/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";

const overviewKey = (topicId: number | null, facility: string | null) => ["overview", topicId, facility] as const;

/** GET /progress/admin/topics/{topicId}[?facilityName=]. */
export const useTopicOverview = (topicId: number | null, facility: string | null) =>
  useQuery({
    queryKey: overviewKey(topicId, facility),
    queryFn: ({ signal }) =>
      api<TopicOverview>(
        `/progress/admin/topics/${topicId}${facility ? `?facilityName=${encodeURIComponent(facility)}` : ""}`,
        { signal },
      ),
    enabled: topicId !== null,
    placeholderData: keepPreviousData,
  });

/** Marks a passive training passed and refreshes every overview. */
export function useMarkPassive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { userId: number; topicId: number; trainingId: number }) =>
      api<OverviewCell>(`/progress/admin/users/${v.userId}/passivetraining`, {
        method: "POST",
        body: { topicID: v.topicId, trainingID: v.trainingId },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["overview"] }),
  });
}
