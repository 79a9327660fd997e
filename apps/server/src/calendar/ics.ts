import ical, { ICalAlarmType } from "ical-generator";
import type { EventRow } from "./events";
import { labelOf } from "./events";
import { apiTimes } from "./times";

/** Calendar apps look for changes of a subscription this often (RFC 7986 REFRESH-INTERVAL). */
const FEED_REFRESH_SECONDS = 3600;

/**
 * When a calendar app reminds of an event it imported: an hour before a timed one, at 09:00 the day
 * before an all-day one (its day starts at midnight: 15 hours earlier).
 */
const ALARM_SECONDS_BEFORE = { timed: 3600, allDay: 15 * 3600 } as const;

/** A stable UID per event: an app that imported the file once replaces it on the next import. */
export function eventUid(id: number): string {
  return `event-${id}@carecampus`;
}

/** The name an event's .ics file is saved under (download and mail attachment). */
export function icsFileName(id: number): string {
  return `event-${id}.ics`;
}

/**
 * Events as an iCalendar text, written by ical-generator. Timed events are UTC instants
 * (ical-generator's `timezone` option would write the process's wall clock without a
 * VTIMEZONE, which apps read as floating times); all-day events are DATE values of their days
 * in the configured zone, End exclusive. SEQUENCE counts the event's changes; each event has its
 * place (LOCATION) and a reminder (VALARM).
 */
export function renderIcs(
  events: readonly EventRow[],
  zone: string,
  options: { name?: string; feed?: boolean } = {},
): string {
  const calendar = ical({
    prodId: { company: "CareCampus", product: "Training calendar", language: "DE" },
    ...(options.name && { name: options.name }),
    ...(options.feed && { ttl: FEED_REFRESH_SECONDS }),
  });
  for (const e of events) {
    const times = apiTimes(e, zone);
    const event = calendar.createEvent({
      id: eventUid(e.id),
      sequence: e.sequence,
      stamp: e.updatedAt,
      // ical-generator writes a YYYY-MM-DD string of an all-day event as that very day.
      start: e.allDay ? times.Start : e.startsAt,
      end: e.allDay ? times.End : e.endsAt,
      allDay: e.allDay,
      summary: labelOf(e),
      description: `${e.training} – ${e.facility}`,
      location: e.location,
      categories: [{ name: e.topic }],
    });
    event.createAlarm({
      type: ICalAlarmType.display,
      triggerBefore: e.allDay ? ALARM_SECONDS_BEFORE.allDay : ALARM_SECONDS_BEFORE.timed,
      description: labelOf(e),
    });
  }
  return calendar.toString();
}
