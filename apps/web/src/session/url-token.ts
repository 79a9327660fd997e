import { endpoints } from "@carecampus/contract";
import { call } from "../api/client";
import { decodeClaims, sessionStore } from "./store";

/**
 * A token in the URL query logs the visitor in and reloads the page without it (spec §2).
 * Returns true when a reload is under way and nothing should render.
 */
export async function consumeUrlToken(): Promise<boolean> {
  const url = new URL(window.location.href);
  const token = url.searchParams.get("token");
  if (!token) return false;
  url.searchParams.delete("token");
  const claims = decodeClaims(token);
  if (claims?.sub) {
    try {
      const user = await call(endpoints.userGet, { params: { id: Number(claims.sub) }, token, silent: true });
      sessionStore.login(token, user);
    } catch {
      // an unusable token simply does not log in
    }
  }
  window.location.replace(url.toString());
  return true;
}
