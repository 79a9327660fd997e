import { UserIdParams } from "../schemas/auth";
import { UserProgress } from "../schemas/learning";
import {
  ExportQuery,
  OverviewCell,
  OverviewParams,
  OverviewQuery,
  PassiveTrainingBody,
  TopicOverview,
} from "../schemas/overview";
import { AUTHED, type EndpointSpec } from "./common";

/** Progress: a user's progress and the staff's overview of a topic (server: learning/ for userProgress, overview/). */
export const overviewEndpoints = {
  userProgress: {
    method: "GET",
    path: "/progress/admin/users/:id",
    params: UserIdParams,
    response: UserProgress,
    errors: AUTHED,
    tags: ["progress"],
    description: "A user's progress: one's own for /profile, or a user within the staff member's scope.",
  },
  overviewTopic: {
    method: "GET",
    path: "/progress/admin/topics/:topicId",
    params: OverviewParams,
    query: OverviewQuery,
    response: TopicOverview,
    errors: AUTHED,
    tags: ["progress"],
    description:
      "Every learner the caller may see (optionally of one facility) × every training of the topic assigned to them.",
  },
  overviewExport: {
    method: "GET",
    path: "/progress/admin/export/xlsx",
    query: ExportQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["progress"],
    description: "The overview as an xlsx workbook: a legend sheet and one sheet per topic (or the one chosen).",
  },
  passiveTrainingMark: {
    method: "POST",
    path: "/progress/admin/users/:id/passivetraining",
    params: UserIdParams,
    body: PassiveTrainingBody,
    response: OverviewCell,
    errors: AUTHED,
    tags: ["progress"],
    description: "Marks a passive (in-person) training passed: a certificate from today.",
  },
} as const satisfies Record<string, EndpointSpec>;
