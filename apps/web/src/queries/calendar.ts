import { api } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../api/client";

/** Calendar data several features show: the learner's own upcoming events (home, training) and the feed (account). */
export const calendarKeys = {
  all: ["calendar"] as const,
  mine: ["calendar", "mine"] as const,
  feed: ["calendar", "feed"] as const,
  range: (start: string, end: string, facility: number | null) =>
    ["calendar", "range", start, end, facility ?? 0] as const,
  one: (id: number) => ["calendar", "one", id] as const,
  proposal: (facility: number, training: number, start: string) =>
    ["calendar", "proposal", facility, training, start] as const,
};

export const useMyEvents = (enabled = true) =>
  useQuery({
    queryKey: calendarKeys.mine,
    queryFn: () => call(api.calendarMine, { silent: true }),
    enabled,
    staleTime: 5 * 60_000,
  });
