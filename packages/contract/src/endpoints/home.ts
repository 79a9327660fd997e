import { StaffHome } from "../schemas/home";
import { AUTHED, type EndpointSpec } from "./common";

/** The staff start page (issue 30; server: home/). */
export const homeEndpoints = {
  staffHome: {
    method: "GET",
    path: "/home/staff",
    response: StaffHome,
    errors: AUTHED,
    tags: ["progress"],
    description:
      "Staff: what needs doing in the caller's facilities — trainings with people red or orange now and those " +
      "expiring within 30 days (per facility and training, with counts), open help requests, events that wait " +
      "for their attendance, and QM pages whose read confirmation is incomplete.",
  },
} as const satisfies Record<string, EndpointSpec>;
