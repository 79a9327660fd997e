import {
  AttendanceBody,
  AttendanceResult,
  CalendarEventBody,
  CalendarEventDetail,
  CalendarEventList,
  CalendarFeed,
  CalendarRangeQuery,
  FeedParams,
  MyEventList,
  Proposal,
  ProposalQuery,
} from "../schemas/calendar";
import { IdParams, OkResponse } from "../schemas/common";
import { AUTHED, type EndpointSpec, LOGGED_IN, TokenQuery, WRITES } from "./common";

/** The training calendar and one's iCalendar subscription (server: calendar/). */
export const calendarEndpoints = {
  calendarList: {
    method: "GET",
    path: "/calendar/events",
    query: CalendarRangeQuery,
    response: CalendarEventList,
    errors: AUTHED,
    tags: ["calendar"],
    description:
      "The events between start and end (ISO dates, at most about a year apart) the caller may see: their facility's, or every facility's for Super-Admins (optionally ?facility=).",
  },
  calendarGet: {
    method: "GET",
    path: "/calendar/events/:id",
    params: IdParams,
    response: CalendarEventDetail,
    errors: AUTHED,
    tags: ["calendar"],
    description: "One event with its invitees, their certificate state for the training, and attendance.",
  },
  calendarCreate: {
    method: "POST",
    path: "/calendar/events",
    body: CalendarEventBody,
    response: CalendarEventDetail,
    errors: WRITES,
    tags: ["calendar"],
    description:
      "Schedules an event. The Title encodes '<facility id>|<topic id>|<training id>|<label>' (unknown facility 1003, unknown training 1005).",
  },
  calendarUpdate: {
    method: "PUT",
    path: "/calendar/events",
    body: CalendarEventBody,
    response: CalendarEventDetail,
    errors: WRITES,
    tags: ["calendar"],
    description: "Changes the event with the body's ID (Invitees left out: unchanged).",
  },
  calendarDelete: {
    method: "DELETE",
    path: "/calendar/events/:id",
    params: IdParams,
    response: OkResponse,
    errors: AUTHED,
    tags: ["calendar"],
    description: "Deletes an event; certificates issued through its attendance stay.",
  },
  calendarProposal: {
    method: "GET",
    path: "/calendar/proposal",
    query: ProposalQuery,
    response: Proposal,
    errors: AUTHED,
    tags: ["calendar"],
    description:
      "The facility's employees assigned the training, with those proposed for an event on `start`: no certificate, expired, or expiring before it.",
  },
  calendarAttendance: {
    method: "PUT",
    path: "/calendar/events/:id/attendance",
    params: IdParams,
    body: AttendanceBody,
    response: AttendanceResult,
    errors: WRITES,
    tags: ["calendar"],
    description:
      "After the event has begun: who attended. For a passive training each attendee gets the certificate, valid from the event's date.",
  },
  calendarIcs: {
    method: "GET",
    path: "/calendar/events/:id/ics",
    params: IdParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["calendar"],
    description: "The event as an iCalendar file (for its invitees and staff who may see it).",
  },
  calendarMine: {
    method: "GET",
    path: "/calendar/mine",
    response: MyEventList,
    errors: LOGGED_IN,
    tags: ["calendar"],
    description: "The caller's own upcoming events (invited), soonest first.",
  },
  calendarFeedGet: {
    method: "GET",
    path: "/calendar/feed",
    response: CalendarFeed,
    errors: LOGGED_IN,
    tags: ["calendar"],
    description:
      "Whether the caller has a personal iCalendar subscription (active). Only its hash is stored, so the URL (url) is known only in the answer of POST; here it is null.",
  },
  calendarFeedCreate: {
    method: "POST",
    path: "/calendar/feed",
    response: CalendarFeed,
    errors: LOGGED_IN,
    tags: ["calendar"],
    description: "Makes a new personal subscription URL; an earlier one stops working.",
  },
  calendarFeedRevoke: {
    method: "DELETE",
    path: "/calendar/feed",
    response: CalendarFeed,
    errors: LOGGED_IN,
    tags: ["calendar"],
    description: "Revokes the personal subscription URL.",
  },
  calendarFeedIcs: {
    method: "GET",
    path: "/calendar/feed/:secret",
    params: FeedParams,
    kind: "download",
    // 400: not the form of a subscription URL; 404: unknown or revoked.
    errors: [400, 404],
    tags: ["calendar"],
    description:
      "A personal iCalendar subscription (the secret is the credential): the owner's events from 30 days ago on.",
  },
} as const satisfies Record<string, EndpointSpec>;
