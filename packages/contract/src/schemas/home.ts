import { z } from "zod";
import { HelpRequestSummary } from "./help";

/*
 * The staff start page (issue 30 "A home for staff"): what needs doing in the caller's scope,
 * each part leading to the screen that resolves it. One call; each list is cut to
 * STAFF_HOME_ROWS rows, its `total` saying how many there are.
 */

/** The most rows each part of the staff start page lists. */
export const STAFF_HOME_ROWS = 6;

const Named = z.object({ id: z.number().int(), name: z.string() });

/** One training of one facility with people whose certificate is missing, lapsed or expiring. */
export const StaffHomeTraining = z
  .object({
    facility: Named,
    topic: Named,
    training: Named.extend({ passive: z.boolean() }),
    /** Missing or expired (spec §4 red). */
    red: z.number().int(),
    /** Expiring within 7 days (orange). */
    orange: z.number().int(),
    /** Expiring in 8 to 30 days (yellow). */
    yellow: z.number().int(),
  })
  .meta({ id: "StaffHomeTraining" });
export type StaffHomeTraining = z.infer<typeof StaffHomeTraining>;

/** A past event whose attendance nobody has recorded yet. */
export const StaffHomeEvent = z
  .object({
    id: z.number().int(),
    label: z.string(),
    facility: Named,
    /** ISO instant of its start. */
    starts_at: z.string(),
    all_day: z.boolean(),
    invitees: z.number().int(),
  })
  .meta({ id: "StaffHomeEvent" });
export type StaffHomeEvent = z.infer<typeof StaffHomeEvent>;

/** A QM page asking for read confirmations that not everyone of a facility has given for its released version. */
export const StaffHomePage = z
  .object({
    page_id: z.number().int(),
    title: z.string(),
    topic_key: z.string(),
    slug: z.string(),
    facility: Named,
    confirmed: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: "StaffHomePage" });
export type StaffHomePage = z.infer<typeof StaffHomePage>;

const part = <T extends z.ZodType>(row: T) => z.object({ total: z.number().int(), rows: z.array(row) });

export const StaffHome = z
  .object({
    /** Trainings with people red or orange now, the most first. */
    due: part(StaffHomeTraining),
    /** Trainings with people whose certificate expires in 8 to 30 days (yellow), the most first. */
    expiring: part(StaffHomeTraining),
    /** Questions with open help requests, the most asked first; `requests` the requests in all. */
    help: part(HelpRequestSummary).extend({ requests: z.number().int() }),
    /** Events that have begun and wait for their attendance, the newest first. */
    attendance: part(StaffHomeEvent),
    /** QM pages whose read confirmation is incomplete, the fewest confirmed first. */
    confirmations: part(StaffHomePage),
  })
  .meta({ id: "StaffHome" });
export type StaffHome = z.infer<typeof StaffHome>;
