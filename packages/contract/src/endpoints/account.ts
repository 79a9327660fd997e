import { AccountPatch, User, UserIdParams } from "../schemas/auth";
import { OkResponse } from "../schemas/common";
import { type EndpointSpec, LOGGED_IN, WRITES } from "./common";

/** One's own account (server: users/routes.ts; web: features/account). */
export const accountEndpoints = {
  userGet: {
    method: "GET",
    path: "/auth/users/:id",
    params: UserIdParams,
    response: User,
    errors: WRITES,
    tags: ["account"],
    description: "A user as the session sees it: oneself, or a user within the caller's scope.",
  },
  accountUpdate: {
    method: "PATCH",
    path: "/auth/users/:id",
    params: UserIdParams,
    body: AccountPatch,
    response: User,
    errors: [...WRITES, 429],
    tags: ["account"],
    description:
      "Changes one's own login, e-mail or password. A wrong old password counts against the login's failure limit, a login in use (400/1001) against a rename limit: 429 with Retry-After.",
  },
  helpRedirectHide: {
    method: "DELETE",
    path: "/account/help_redirect_dialog",
    response: OkResponse,
    errors: LOGGED_IN,
    tags: ["account"],
    description: "Stops offering the tutorial after login.",
  },
} as const satisfies Record<string, EndpointSpec>;
