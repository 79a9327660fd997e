import { z } from "zod";
import { TutorialImageParams } from "../schemas/help";
import { AUTHED, type EndpointSpec, MediaParams, TokenQuery } from "./common";

export const IconParams = z
  .object({ file: z.string().regex(/^icon_[a-z0-9][a-z0-9-]{0,62}\.svg$/, "unknown icon") })
  .strict();

/** Files of the content, opened by URL with the token in the query (server: files/). A wiki page's images: wiki.ts. */
export const fileEndpoints = {
  staticImage: {
    method: "GET",
    path: "/static/image/:id",
    params: MediaParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "An image of the content (byte ranges honoured).",
  },
  staticVideo: {
    method: "GET",
    path: "/static/video/:id",
    params: MediaParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "A video of the content (byte ranges honoured, so it can seek).",
  },
  staticIcon: {
    method: "GET",
    path: "/static/icon/:file",
    params: IconParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "A topic or training icon (icon_<name>.svg).",
  },
  staticAdminTutorial: {
    method: "GET",
    path: "/static/admin-tutorial/:name",
    params: TutorialImageParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "A screenshot of the staff tutorial (<screen>-<lang>_2x); staff only.",
  },
  staticEmployeeTutorial: {
    method: "GET",
    path: "/static/employee-tutorial/:name",
    params: TutorialImageParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "A screenshot of the employee tutorial (<screen>-<lang>_2x).",
  },
} as const satisfies Record<string, EndpointSpec>;
