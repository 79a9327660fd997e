import type { NextQuestion, TopicDetail, TrainingDetail } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { learningKeys } from "../../queries/learning";

export const useTopic = (id: number) =>
  useQuery({ queryKey: learningKeys.topic(id), queryFn: () => api<TopicDetail>(`/progress/topics/${id}/trainings`) });

export const useTraining = (topic: number, training: number) =>
  useQuery({
    queryKey: learningKeys.training(topic, training),
    queryFn: () => api<TrainingDetail>(`/progress/topics/${topic}/trainings/${training}/questionnaires`),
  });

export const useNextQuestion = (topic: number, training: number, q: number, enabled: boolean, practice: boolean) =>
  useQuery({
    queryKey: learningKeys.question(topic, training, q, practice),
    queryFn: () =>
      api<NextQuestion>(
        `/progress/topics/${topic}/trainings/${training}/questionnaires/${q}/questions${practice ? "?practice=true" : ""}`,
      ),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
