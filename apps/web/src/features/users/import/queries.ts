import { api, ImportErrorBody, type ImportProblem, type ImportRow } from "@carecampus/contract";
import { ApiError, call } from "../../../api/client";

export interface ImportOptions {
  /** Delete the employees of the file's facilities that the file does not list. */
  deleteMissing: boolean;
  /** Check and count only: the server writes nothing (used to confirm the deletions). */
  dryRun: boolean;
}

/**
 * POST /auth/admin/users with the rows (spec §7): one transaction, all or nothing. Silent: a
 * refusal carries row problems the screen shows on the rows, not as a toast.
 */
export function postImport(rows: readonly ImportRow[], { deleteMissing, dryRun }: ImportOptions) {
  return call(api.adminUserImport, {
    query: { deleteNotIncludedUsers: deleteMissing ? "true" : "false", dryRun: dryRun ? "true" : undefined },
    body: [...rows],
    silent: true,
  });
}

/** The row problems of a refused import, or null for any other failure. */
export function importProblems(error: unknown): ImportProblem[] | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = ImportErrorBody.safeParse(error.body);
  return (body.success && body.data.problems) || null;
}
