import { mayOpenRoute, type RouteName } from "@carecampus/contract";
import type { ReactNode } from "react";
import { NotFoundPage } from "../components/NotFoundPage";
import { useSession } from "../session/store";

/** A role not allowed on a route sees the not-found screen (spec §2). */
export default function RequireRole({ route, children }: { route: RouteName; children: ReactNode }) {
  const session = useSession();
  if (!session || !mayOpenRoute(session.user.roles, route)) return <NotFoundPage />;
  return children;
}
