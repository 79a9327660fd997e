import {
  AdminUser,
  AdminUserList,
  ImportErrorBody,
  ImportQuery,
  ImportResult,
  ImportUsers,
  UserCreate,
  UserSearchQuery,
  UserUpdate,
} from "../schemas/admin";
import { UserIdParams } from "../schemas/auth";
import { OkResponse } from "../schemas/common";
import { type EndpointSpec, WRITES } from "./common";

/** What the two calls on POST /auth/admin/users share (endpoints.ts: sharedRoutes). */
export const adminUsersPost = {
  method: "POST",
  path: "/auth/admin/users",
  // 413: a body beyond the caller's limit (only a superuser may send an import's size).
  errors: [...WRITES, 413],
  errorBodies: { 400: ImportErrorBody },
  tags: ["administration"],
} as const;

/** Administration of users (server: users/admin-routes.ts). */
export const userEndpoints = {
  adminUserList: {
    method: "GET",
    path: "/auth/admin/users",
    query: UserSearchQuery,
    response: AdminUserList,
    errors: WRITES,
    tags: ["administration"],
    description:
      "The users within the caller's scope, optionally searched; former=true lists the former employees " +
      "(archived by a delete or an import; superusers and Super-Admins everywhere, administrators their " +
      "facility) with the day they left (left_at).",
  },
  adminUserGet: {
    method: "GET",
    path: "/auth/admin/users/:id",
    params: UserIdParams,
    response: AdminUser,
    errors: WRITES,
    tags: ["administration"],
    description: "A user within the caller's scope.",
  },
  adminUserCreate: {
    ...adminUsersPost,
    body: UserCreate,
    response: AdminUser,
    description: "Creates one user (an object as body).",
  },
  adminUserImport: {
    ...adminUsersPost,
    query: ImportQuery,
    body: ImportUsers,
    response: ImportResult,
    description:
      "Imports users (an array as body; superuser only) in one transaction: a 400 lists every bad row; " +
      "existing employees are updated and keep their password; deleteNotIncludedUsers=true deletes the " +
      "employees of the file's facilities it does not name (archived: no login, out of every list, records " +
      "kept, can be restored); dryRun=true only counts and names them.",
  },
  adminUserUpdate: {
    method: "PATCH",
    path: "/auth/admin/users/:id",
    params: UserIdParams,
    body: UserUpdate,
    response: AdminUser,
    errors: WRITES,
    tags: ["administration"],
    description: "Changes a user within the caller's scope.",
  },
  adminUserDelete: {
    method: "DELETE",
    path: "/auth/admin/users/:id",
    params: UserIdParams,
    response: OkResponse,
    errors: WRITES,
    tags: ["administration"],
    description:
      "Deletes a user within the caller's scope: the person is archived (no login, sessions end, out of " +
      "every list and count), their certificates, attempts and confirmations are kept, and they can be restored.",
  },
  adminUserRestore: {
    method: "POST",
    path: "/auth/admin/users/:id/restore",
    params: UserIdParams,
    response: AdminUser,
    errors: WRITES,
    tags: ["administration"],
    description:
      "Brings a former employee back (same login, password, roles, facility and records); 1012 when " +
      "MAX_USERS is reached, 1002 for a current member or someone outside the caller's scope.",
  },
} as const satisfies Record<string, EndpointSpec>;
