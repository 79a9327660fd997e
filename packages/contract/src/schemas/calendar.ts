import { z } from "zod";
import { EVENT_LABEL_MAX } from "../rules/calendar-events";
import { Id } from "./common";
import { ExpiryColourSchema as ExpiryColour } from "./overview";

/** An ISO calendar day (all-day events) or an ISO instant with its offset (timed events). */
const When = z
  .string()
  .trim()
  .max(40)
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) || !Number.isNaN(Date.parse(s)), "must be an ISO date or date-time");

/** GET /calendar/events?start=&end= (ISO dates; both required; at most about a year). */
export const CalendarRangeQuery = z.object({ start: When, end: When, facility: Id.optional() }).strict();
export type CalendarRangeQuery = z.infer<typeof CalendarRangeQuery>;

const Colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour #rrggbb");

/** POST and PUT /calendar/events (spec §3, §7): the Title carries facility, topic and training (calendar-events.ts). */
export const CalendarEventBody = z
  .object({
    /** Required by PUT, ignored by POST. */
    ID: Id.optional(),
    Title: z.string().max(EVENT_LABEL_MAX + 40),
    Start: When,
    End: When,
    AllDay: z.boolean(),
    Color: Colour,
    Location: z.string().trim().max(200).optional(),
    /** Employees of the event's facility; omitted on PUT: unchanged. */
    Invitees: z.array(Id).max(2000).optional(),
  })
  .strict()
  .meta({ id: "CalendarEventBody" });
export type CalendarEventBody = z.infer<typeof CalendarEventBody>;

const Named = z.object({ id: z.number().int(), name: z.string() });

export const CalendarEvent = z
  .object({
    ID: z.number().int(),
    Title: z.string(),
    /** All-day: YYYY-MM-DD (End exclusive); timed: ISO instants. */
    Start: z.string(),
    End: z.string(),
    AllDay: z.boolean(),
    Color: z.string(),
    /** The decoded Title. */
    Label: z.string(),
    Facility: Named,
    Topic: Named,
    Training: Named.extend({ passive: z.boolean() }),
    Location: z.string().nullable(),
    Organiser: Named.nullable(),
    InviteeCount: z.number().int(),
    AttendedCount: z.number().int(),
    /** The event has begun: attendance can be recorded. */
    Started: z.boolean(),
    /** The caller may change it (staff of its facility, Super-Admins). */
    CanEdit: z.boolean(),
  })
  .meta({ id: "CalendarEvent" });
export type CalendarEvent = z.infer<typeof CalendarEvent>;
export const CalendarEventList = z.array(CalendarEvent).meta({ id: "CalendarEventList" });

export const Invitee = z
  .object({
    id: z.number().int(),
    name: z.string(),
    surname: z.string(),
    /** The state of their certificate for the training today (spec §4 colours). */
    colour: ExpiryColour,
    expires_at: z.string().nullable(),
    /** null until attendance is recorded. */
    attended: z.boolean().nullable(),
  })
  .meta({ id: "Invitee" });
export type Invitee = z.infer<typeof Invitee>;

export const CalendarEventDetail = CalendarEvent.extend({ Invitees: z.array(Invitee) }).meta({
  id: "CalendarEventDetail",
});
export type CalendarEventDetail = z.infer<typeof CalendarEventDetail>;

/** GET /calendar/proposal: who of the facility must do the training, with who needs this date. */
export const ProposalQuery = z.object({ facility: Id, training: Id, start: When }).strict();
export const ProposalEntry = Invitee.omit({ attended: true })
  .extend({
    /** No certificate, expired, or expiring before the event: proposed for the invitation. */
    proposed: z.boolean(),
  })
  .meta({ id: "ProposalEntry" });
export type ProposalEntry = z.infer<typeof ProposalEntry>;
export const Proposal = z.array(ProposalEntry).meta({ id: "Proposal" });

/** PUT /calendar/events/{id}/attendance: who attended (every other invitee did not). */
export const AttendanceBody = z
  .object({ attended: z.array(Id).max(2000) })
  .strict()
  .meta({ id: "AttendanceBody" });
export const AttendanceResult = z
  .object({ event: CalendarEventDetail, certificates: z.number().int() })
  .meta({ id: "AttendanceResult" });

/** An employee's own upcoming events (start page, training page). */
export const MyEvent = z
  .object({
    ID: z.number().int(),
    Label: z.string(),
    Start: z.string(),
    End: z.string(),
    AllDay: z.boolean(),
    Location: z.string().nullable(),
    Facility: Named,
    Topic: Named,
    Training: Named,
  })
  .meta({ id: "MyEvent" });
export type MyEvent = z.infer<typeof MyEvent>;
export const MyEventList = z.array(MyEvent).meta({ id: "MyEventList" });

/**
 * The personal iCalendar subscription. Only a hash of its secret is stored, so the URL is
 * known only in the answer that creates it (url); later answers say whether one is active.
 */
export const CalendarFeed = z.object({ url: z.string().nullable(), active: z.boolean() }).meta({ id: "CalendarFeed" });
export const FeedParams = z
  .object({ secret: z.string().regex(/^[A-Za-z0-9_-]{32,64}\.ics$/, "unknown feed") })
  .strict();
