import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useSession } from "../session/store";

/** Unauthenticated visitors go to /login, and come back to the requested page after it. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from }} />;
  }
  return children;
}
