import { api } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../api/client";
import { EARLY, early } from "../api/early";

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

/**
 * What a link to /calendar may ask it to open (its history state): the new-event dialog planned
 * for a training's red and orange people of a facility (the staff start page's "plan a date for
 * these N"), or an event, e.g. to record its attendance.
 */
export type CalendarRequest = { plan: { facility: number; topic: number; training: number } } | { event: number };

export const useMyEvents = (enabled = true) =>
  useQuery({
    queryKey: calendarKeys.mine,
    queryFn: () => early(EARLY.myEvents, () => call(api.calendarMine, { silent: true })),
    enabled,
    staleTime: 5 * 60_000,
  });
