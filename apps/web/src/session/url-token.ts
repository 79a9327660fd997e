import { api } from "@carecampus/contract";
import { call } from "../api/client";
import i18n from "../i18n";
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
      const user = await call(api.userGet, { params: { id: Number(claims.sub) }, token, silent: true });
      // A link must not silently put someone else in the place of whoever is logged in here.
      const current = sessionStore.get().session?.user;
      const switching = current !== undefined && current.id !== user.id;
      const name = (u: { name: string; surname: string }) => `${u.name} ${u.surname}`;
      if (!switching || window.confirm(i18n.t("session.switchUser", { current: name(current), next: name(user) }))) {
        sessionStore.login(token, user);
      }
    } catch {
      // an unusable token simply does not log in
    }
  }
  window.location.replace(url.toString());
  return true;
}
