import { ContentVersion } from "../schemas/learning";
import { type EndpointSpec, LOGGED_IN } from "./common";

/** The imported content package (server: content/). */
export const contentEndpoints = {
  contentVersion: {
    method: "GET",
    path: "/content/CurrentContentVersion",
    response: ContentVersion,
    errors: LOGGED_IN,
    tags: ["content"],
    description: "The version of the imported content package.",
  },
} as const satisfies Record<string, EndpointSpec>;
