import type { User } from "@carecampus/contract";
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
      const res = await fetch(`/api/auth/users/${encodeURIComponent(claims.sub)}`, {
        headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      });
      if (res.ok) sessionStore.login(token, (await res.json()) as User);
    } catch {
      // an unusable token simply does not log in
    }
  }
  window.location.replace(url.toString());
  return true;
}
