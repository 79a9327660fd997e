import { z } from "zod";
import {
  AdditionalQualification,
  AdditionalQualificationCreate,
  AdditionalQualificationList,
  AdditionalQualificationQuery,
  UserAdditionalQualifications,
} from "../schemas/admin";
import { Id } from "../schemas/common";
import { type EndpointSpec, WRITES } from "./common";

export const ExternalUserParams = z.object({ userId: Id }).strict();

/** Additional (external) qualifications of a facility and its users (server: qualifications/). */
export const qualificationEndpoints = {
  externalList: {
    method: "GET",
    path: "/external",
    query: AdditionalQualificationQuery,
    response: AdditionalQualificationList,
    errors: WRITES,
    tags: ["administration"],
    description: "The additional (external) qualifications of the caller's facilities, or of one.",
  },
  externalCreate: {
    method: "POST",
    path: "/external",
    body: AdditionalQualificationCreate,
    response: AdditionalQualification,
    errors: WRITES,
    tags: ["administration"],
    description: "Creates an additional qualification of a facility.",
  },
  externalUserGet: {
    method: "GET",
    path: "/external/user/:userId",
    params: ExternalUserParams,
    response: AdditionalQualificationList,
    errors: WRITES,
    tags: ["administration"],
    description: "The additional qualifications a user holds.",
  },
  externalUserSet: {
    method: "PUT",
    path: "/external/user/:userId",
    params: ExternalUserParams,
    body: UserAdditionalQualifications,
    response: AdditionalQualificationList,
    errors: WRITES,
    tags: ["administration"],
    description: "Replaces the additional qualifications a user holds.",
  },
} as const satisfies Record<string, EndpointSpec>;
