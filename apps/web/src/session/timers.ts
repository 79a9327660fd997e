import { ACTIVITY_EVENTS, api, refreshDelayMs } from "@carecampus/contract";
import { useEffect } from "react";
import { call } from "../api/client";
import { settings } from "../app/settings";
import { sessionStore, useSession } from "./store";

/** Refreshes the token when fewer than 10 s remain on its timer (lifetime = exp − 20 s). */
export function useTokenRefresh(): void {
  const session = useSession();
  const token = session?.token;
  const exp = session?.claims.exp;
  const lang = session?.user.language;
  useEffect(() => {
    if (!token || exp === undefined) return;
    const timer = window.setTimeout(
      () => {
        call(api.refresh, { query: { lang: lang || undefined }, silent: true })
          .then((res) => sessionStore.setToken(res.token))
          .catch(() => {
            // A failed refresh ends in 401 handling (session cleared) or the token simply expires.
          });
      },
      refreshDelayMs(exp, Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [token, exp, lang]);
}

/**
 * Ends the session after `session-time-in-minutes` without mousedown, keydown, scroll or
 * touchstart, and raises the lockout dialog (spec §4, §9).
 */
export function useInactivityLockout(): void {
  const loggedIn = useSession() !== null;
  useEffect(() => {
    if (!loggedIn) return;
    const limitMs = settings["session-time-in-minutes"] * 60_000;
    let last = Date.now();
    const touch = () => {
      last = Date.now();
    };
    for (const e of ACTIVITY_EVENTS) window.addEventListener(e, touch, { passive: true, capture: true });
    const check = window.setInterval(() => {
      if (Date.now() - last > limitMs) sessionStore.clear({ lockedOut: true });
    }, 1000);
    return () => {
      window.clearInterval(check);
      for (const e of ACTIVITY_EVENTS) window.removeEventListener(e, touch, { capture: true });
    };
  }, [loggedIn]);
}
