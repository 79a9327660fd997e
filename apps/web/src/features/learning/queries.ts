import { api } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../api/client";
import { learningKeys } from "../../queries/learning";

export const useTopic = (id: number) =>
  useQuery({ queryKey: learningKeys.topic(id), queryFn: () => call(api.topicGet, { params: { id } }) });

export const useTraining = (topic: number, training: number) =>
  useQuery({
    queryKey: learningKeys.training(topic, training),
    queryFn: () => call(api.trainingGet, { params: { topic, training } }),
  });

/**
 * The next question; `lang`: the content language asked for ("de" for the original), else the
 * learner's own (the server's default).
 */
export const useNextQuestion = (
  topic: number,
  training: number,
  q: number,
  enabled: boolean,
  practice: boolean,
  lang?: string,
) =>
  useQuery({
    queryKey: learningKeys.question(topic, training, q, practice, lang),
    queryFn: () =>
      call(api.questionNext, {
        params: { topic, training, q },
        query: { practice: practice ? "true" : undefined, lang },
      }),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
