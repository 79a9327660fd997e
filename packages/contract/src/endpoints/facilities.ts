import { FacilityCreate, NamedItem, NamedList } from "../schemas/admin";
import { type EndpointSpec, LOGGED_IN, WRITES } from "./common";

/** Facilities and the reference lists of the user form (server: facilities/). */
export const facilityEndpoints = {
  facilityList: {
    method: "GET",
    path: "/auth/admin/facilities",
    response: NamedList,
    errors: WRITES,
    tags: ["administration"],
    description: "The facilities the caller may see.",
  },
  facilityCreate: {
    method: "POST",
    path: "/auth/admin/facilities",
    body: FacilityCreate,
    response: NamedItem,
    errors: WRITES,
    tags: ["administration"],
    description: "Creates a facility (MAX_FACILITIES limits them).",
  },
  qualificationList: {
    method: "GET",
    path: "/filter/list/qualification",
    response: NamedList,
    errors: LOGGED_IN,
    tags: ["administration"],
    description: "The qualifications a user can hold: a reference list for the user form.",
  },
  activityList: {
    method: "GET",
    path: "/filter/list/activityfocus",
    response: NamedList,
    errors: LOGGED_IN,
    tags: ["administration"],
    description: "The activity focuses a user can have: a reference list for the user form.",
  },
} as const satisfies Record<string, EndpointSpec>;
