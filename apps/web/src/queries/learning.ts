import { api } from "@carecampus/contract";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { call } from "../api/client";
import { EARLY, early } from "../api/early";
import { keepCopy } from "../offline/copy";
import { sessionStore } from "../session/store";

/** Learning data several features show: the learner's topics (home, shell) and a user's progress (profile, users). */
export const learningKeys = {
  all: ["learning"] as const,
  topics: ["learning", "topics"] as const,
  topic: (id: number) => ["learning", "topic", id] as const,
  training: (topic: number, training: number) => ["learning", "training", topic, training] as const,
  question: (topic: number, training: number, q: number, practice: boolean, lang?: string) =>
    ["learning", "question", topic, training, q, practice, lang ?? ""] as const,
  progress: (userId: number) => ["learning", "progress", userId] as const,
};

// The start page's first answers may have been asked for at start-up (app/start.ts, api/early.ts).
export const useTopics = (enabled = true) =>
  useQuery({ queryKey: learningKeys.topics, queryFn: () => early(EARLY.topics, () => call(api.topicList)), enabled });

/**
 * A user's progress. The learner's own, each time it arrives, is also kept on the device as the
 * copy of "my certificates" that can be shown offline (offline/copy.ts).
 */
export const useUserProgress = (userId: number, enabled = true) =>
  useQuery({
    queryKey: learningKeys.progress(userId),
    queryFn: async () => {
      const progress = await early(EARLY.progress(userId), () => call(api.userProgress, { params: { id: userId } }));
      const me = sessionStore.get().session?.user;
      if (me?.id === userId) void keepCopy({ id: me.id, name: me.name, surname: me.surname }, progress);
      return progress;
    },
    enabled,
  });

/**
 * After an answer every count on every learning screen may have changed. The quiz's own
 * next-question query is left alone: the quiz fetches it when the user moves on.
 */
export function invalidateLearning(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: learningKeys.all, predicate: (q) => q.queryKey[1] !== "question" });
}
