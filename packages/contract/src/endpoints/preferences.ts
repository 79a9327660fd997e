import { UserIdParams } from "../schemas/auth";
import { ContentLanguages, Preferences, PreferencesPatch } from "../schemas/preferences";
import { AUTHED, type EndpointSpec } from "./common";

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
    description:
      'Changes one of one\'s own preferences. content_language: a content language of the installation (CONTENT_LANGUAGES) or de, the language trainings come in; "" follows the interface language again.',
  },
  contentLanguageList: {
    method: "GET",
    path: "/content-languages",
    response: ContentLanguages,
    errors: AUTHED,
    tags: ["preferences"],
    description: "The languages trainings may be taken in: German (the binding original) and CONTENT_LANGUAGES.",
  },
} as const satisfies Record<string, EndpointSpec>;
