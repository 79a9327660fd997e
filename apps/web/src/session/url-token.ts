import { api } from "@carecampus/contract";
import { call } from "../api/client";
import i18n from "../i18n";
import { rememberSsoProvider, takeSsoNonce } from "./sso";
import { decodeClaims, sessionStore } from "./store";

/**
 * A single sign-on login's return (issue 32): the session in the address's fragment
 * (#sso_token=…&sso=<provider>&sso_nonce=…), which no server saw. Taken and removed from the
 * address without a reload, and only when it comes back with the value this browser's login
 * began with: a link carrying someone else's session (login CSRF) is dropped.
 */
async function consumeSsoFragment(url: URL): Promise<void> {
  const fragment = new URLSearchParams(url.hash.slice(1));
  const token = fragment.get("sso_token");
  if (!token) return;
  url.hash = "";
  window.history.replaceState(window.history.state, "", url.pathname + url.search);
  if (!takeSsoNonce(fragment.get("sso_nonce"))) return;
  const claims = decodeClaims(token);
  if (!claims?.sub) return;
  try {
    const user = await call(api.userGet, { params: { id: Number(claims.sub) }, token, silent: true });
    sessionStore.login(token, user);
    rememberSsoProvider(fragment.get("sso"));
  } catch {
    // an unusable token simply does not log in
  }
}

/**
 * A token in the URL query logs the visitor in and reloads the page without it (spec §2).
 * Returns true when a reload is under way and nothing should render.
 */
export async function consumeUrlToken(): Promise<boolean> {
  const url = new URL(window.location.href);
  await consumeSsoFragment(url);
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
        rememberSsoProvider(null);
      }
    } catch {
      // an unusable token simply does not log in
    }
  }
  window.location.replace(url.toString());
  return true;
}
