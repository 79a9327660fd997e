import {
  type CalendarEvent,
  type CalendarEventBody,
  EVENT_COLOURS,
  encodeEventTitle,
  formatTime,
  isoDay,
  timeOfDay,
  zonedTime,
} from "@carecampus/contract";

/** The edit modal's fields (spec §2: date, all-day, 24-hour times, facility, topic, training). */
export interface EventFormValues {
  label: string;
  facility: number | null;
  topic: number | null;
  training: number | null;
  /** YYYY-MM-DD: the (first) day. */
  day: string;
  /** YYYY-MM-DD: the last day of an all-day event (inclusive). */
  endDay: string;
  allDay: boolean;
  /** HH:mm, 24-hour. */
  startTime: string;
  endTime: string;
  location: string;
  color: string;
  invitees: number[];
}

export type EventFormProblem = "training" | "endBeforeStart" | "time";

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const parseDay = (day: string) => day.split("-").map(Number) as [number, number, number];

/** The day after a YYYY-MM-DD day (the exclusive End of an all-day event). */
export function nextDay(day: string): string {
  const [y, m, d] = parseDay(day);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

function previousDay(day: string): string {
  const [y, m, d] = parseDay(day);
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

function instant(day: string, time: string, zone: string): string {
  const [y, m, d] = parseDay(day);
  const [h, min] = time.split(":").map(Number) as [number, number];
  return zonedTime(zone, y, m, d, h, min).toISOString();
}

const hh = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/**
 * A new event's first hour on `day`: 09:00–10:00; today, once 09:00 has passed, the next full hour
 * (a new event should not start in the past and ask about it), the last one 23:00–23:59. The day
 * stays the one chosen; a day in the past keeps 09:00, and saving asks.
 */
export function firstSlot(day: string, now: Date, zone: string): { day: string; startTime: string; endTime: string } {
  const next = day === isoDay(now, zone) ? timeOfDay(now, zone).hour + 1 : 0;
  if (next <= 9) return { day, startTime: "09:00", endTime: "10:00" };
  if (next >= 23) return { day, startTime: "23:00", endTime: "23:59" };
  return { day, startTime: hh(next), endTime: hh(next + 1) };
}

/** A new event on `day` (its first hour by firstSlot), the facility preset for staff bound to one. */
export function emptyEvent(day: string, facility: number | null, now: Date, zone: string): EventFormValues {
  const slot = firstSlot(day, now, zone);
  return {
    label: "",
    facility,
    topic: null,
    training: null,
    day: slot.day,
    endDay: slot.day,
    allDay: false,
    startTime: slot.startTime,
    endTime: slot.endTime,
    location: "",
    color: EVENT_COLOURS[0],
    invitees: [],
  };
}

/** The form of a stored event, its times read in the configured time zone. */
export function eventValues(e: CalendarEvent & { Invitees?: { id: number }[] }, zone: string): EventFormValues {
  return {
    label: e.Label,
    facility: e.Facility.id,
    topic: e.Topic.id,
    training: e.Training.id,
    day: e.AllDay ? e.Start : isoDay(new Date(e.Start), zone),
    endDay: e.AllDay ? previousDay(e.End) : isoDay(new Date(e.Start), zone),
    allDay: e.AllDay,
    startTime: e.AllDay ? "09:00" : formatTime(e.Start, zone),
    endTime: e.AllDay ? "10:00" : formatTime(e.End, zone),
    location: e.Location ?? "",
    color: e.Color,
    invitees: (e.Invitees ?? []).map((i) => i.id),
  };
}

/** What keeps the form from being saved (spec §5: a calendar save needs a training). */
export function eventProblems(v: EventFormValues): Partial<Record<keyof EventFormValues, EventFormProblem>> {
  const problems: Partial<Record<keyof EventFormValues, EventFormProblem>> = {};
  if (v.training === null || v.topic === null || v.facility === null) problems.training = "training";
  if (v.allDay) {
    if (v.endDay < v.day) problems.endDay = "endBeforeStart";
  } else {
    if (!TIME.test(v.startTime)) problems.startTime = "time";
    if (!TIME.test(v.endTime)) problems.endTime = "time";
    else if (TIME.test(v.startTime) && v.endTime <= v.startTime) problems.endTime = "endBeforeStart";
  }
  return problems;
}

/** The POST/PUT body; the Title encodes facility, topic and training (contract calendar-events.ts). */
export function eventBody(v: EventFormValues, zone: string, id?: number): CalendarEventBody {
  const title = encodeEventTitle({
    facility: v.facility ?? 0,
    topic: v.topic ?? 0,
    training: v.training ?? 0,
    label: v.label.trim(),
  });
  return {
    ...(id === undefined ? {} : { ID: id }),
    Title: title,
    Start: v.allDay ? v.day : instant(v.day, v.startTime, zone),
    End: v.allDay ? nextDay(v.endDay) : instant(v.day, v.endTime, zone),
    AllDay: v.allDay,
    Color: v.color,
    Location: v.location.trim(),
    Invitees: v.invitees,
  };
}

/**
 * An event dragged to a new start (FullCalendar's ISO strings): the same length, the rest
 * unchanged; the invitees stay (left out of the body).
 */
export function movedBody(e: CalendarEvent, startStr: string, endStr: string): CalendarEventBody {
  let start = startStr;
  let end = endStr;
  if (e.AllDay) {
    start = startStr.slice(0, 10);
    if (!end) {
      const days = Math.round((Date.parse(e.End) - Date.parse(e.Start)) / 86_400_000);
      let d = start;
      for (let i = 0; i < days; i++) d = nextDay(d);
      end = d;
    }
    end = end.slice(0, 10);
  } else if (!end) {
    end = new Date(Date.parse(startStr) + (Date.parse(e.End) - Date.parse(e.Start))).toISOString();
  }
  return {
    ID: e.ID,
    Title: e.Title,
    Start: start,
    End: end,
    AllDay: e.AllDay,
    Color: e.Color,
    Location: e.Location ?? "",
  };
}
