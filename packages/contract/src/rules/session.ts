import { TOKEN_EXPIRED_AT_SECONDS, TOKEN_MARGIN_SECONDS, TOKEN_REFRESH_BELOW_SECONDS } from "../constants";

/** Seconds left on the client's timer for a token expiring at `exp` (epoch seconds). */
export function secondsLeft(exp: number, nowMs: number): number {
  return exp - TOKEN_MARGIN_SECONDS - nowMs / 1000;
}

/** A stored token is accepted only while its expiry lies in the future (spec §4, §9). */
export function isTokenUsable(exp: number, nowMs: number): boolean {
  return exp - nowMs / 1000 > TOKEN_EXPIRED_AT_SECONDS;
}

/** Milliseconds until the client should refresh a token expiring at `exp`. */
export function refreshDelayMs(exp: number, nowMs: number): number {
  return Math.max(0, (secondsLeft(exp, nowMs) - TOKEN_REFRESH_BELOW_SECONDS) * 1000);
}
