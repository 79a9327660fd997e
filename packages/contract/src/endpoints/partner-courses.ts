import {
  ExternalCourseList,
  ExternalToken,
  PartnerAdminCourses,
  PartnerAdminQuery,
  PartnerCourseQuery,
} from "../schemas/partner-courses";
import { AUTHED, type EndpointSpec } from "./common";

/** External courses of a partner provider (spec §7; docs/partner-contract.md; server: partner-courses/). */
export const partnerCourseEndpoints = {
  partnerCourses: {
    method: "GET",
    path: "/external-course/course",
    query: PartnerCourseQuery,
    response: ExternalCourseList,
    errors: [...AUTHED, 502],
    tags: ["external courses"],
    description:
      "A training's courses of the partner provider with the learner's progress and certificate (a new partner certificate is stored on the way). userId: staff, a user within their scope. 404 while show-external-trainings is off or no partner is configured; 502 (1107) when the partner does not answer in time or with garbage.",
  },
  partnerAdminCourses: {
    method: "GET",
    path: "/external-course/admin/courses",
    query: PartnerAdminQuery,
    response: PartnerAdminCourses,
    errors: [...AUTHED, 502],
    tags: ["external courses"],
    description: "Staff: which of their users did which partner course of a training, within their facility scope.",
  },
  partnerToken: {
    method: "GET",
    path: "/external-course/token",
    response: ExternalToken,
    errors: [...AUTHED, 502],
    tags: ["external courses"],
    description:
      "A short-lived launch token of the partner bound to the learner; the browser renews it 20 s before valid_until (spec §9).",
  },
} as const satisfies Record<string, EndpointSpec>;
