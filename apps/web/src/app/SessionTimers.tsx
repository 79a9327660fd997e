import { useInactivityLockout, useTokenRefresh } from "../session/timers";

export function SessionTimers() {
  useTokenRefresh();
  useInactivityLockout();
  return null;
}
