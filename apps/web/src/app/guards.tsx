import { mayOpenRoute, type RouteName } from "@carecampus/contract";
import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { NotFoundPage } from "../components/NotFoundPage";
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

/** A role not allowed on a route sees the not-found screen (spec §2). */
export function RequireRole({ route, children }: { route: RouteName; children: ReactNode }) {
  const session = useSession();
  if (!session || !mayOpenRoute(session.user.roles, route)) return <NotFoundPage />;
  return children;
}
