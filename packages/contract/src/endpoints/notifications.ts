import { IdParams, NotificationList, OkResponse } from "../schemas/common";
import { type EndpointSpec, LOGGED_IN } from "./common";

/** One's notifications (server: notifications/). */
export const notificationEndpoints = {
  notificationList: {
    method: "GET",
    path: "/notifications",
    response: NotificationList,
    errors: LOGGED_IN,
    tags: ["notifications"],
    description: "One's unread notifications, newest first.",
  },
  notificationRead: {
    method: "DELETE",
    path: "/notifications/:id",
    params: IdParams,
    response: OkResponse,
    errors: [400, 401, 404],
    tags: ["notifications"],
    description: "Marks one of one's notifications read.",
  },
} as const satisfies Record<string, EndpointSpec>;
