import { UserIdParams } from "../schemas/auth";
import { Preferences, PreferencesPatch } from "../schemas/preferences";
import type { EndpointSpec } from "./common";

/** One's own theme, avatar and language (server: preferences/). */
export const preferenceEndpoints = {
  preferencesGet: {
    method: "GET",
    path: "/preferences/:id",
    params: UserIdParams,
    response: Preferences,
    errors: [400, 401, 404],
    tags: ["preferences"],
    description: "One's own theme, avatar and language.",
  },
  preferencesUpdate: {
    method: "PATCH",
    path: "/preferences/:id",
    params: UserIdParams,
    body: PreferencesPatch,
    response: Preferences,
    errors: [400, 401, 404],
    tags: ["preferences"],
    description: "Changes one of one's own preferences.",
  },
} as const satisfies Record<string, EndpointSpec>;
