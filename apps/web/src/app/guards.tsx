import { Fragment, type ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useSession } from "../session/store";

/**
 * Unauthenticated visitors go to /login, and come back to the requested page after it. The
 * logged-in screens belong to one user: when another tab logs someone else in (a token link, a
 * login after a logout there), this tab follows the session (session/store.ts) and draws them
 * anew for that user, so nothing the last user's screens held or cached (the shell's query
 * cache, Shell.tsx) shows under the new one.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from }} />;
  }
  return <Fragment key={session.user.id}>{children}</Fragment>;
}
