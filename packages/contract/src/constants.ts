/** Business constants of spec §9. */
export const TOAST_MS = 3000;
export const POPUP_RIGHT_MS = 1800;
export const POPUP_WRONG_MS = 2800;
export const ACTIVITY_EVENTS = ["mousedown", "keydown", "scroll", "touchstart"] as const;
/** Server-side token lifetime (ARCHITECTURE decision 9). */
export const TOKEN_LIFETIME_SECONDS = 300;
/** The client counts a token's lifetime as its expiry minus this margin (spec §9). */
export const TOKEN_MARGIN_SECONDS = 20;
/** Refresh when fewer than this many seconds remain on the client's timer. */
export const TOKEN_REFRESH_BELOW_SECONDS = 10;
/**
 * How long before a token's expiry the web client refreshes it (spec §9): its timer ends
 * TOKEN_MARGIN_SECONDS early and it refreshes TOKEN_REFRESH_BELOW_SECONDS before that.
 */
export const TOKEN_REFRESH_LEAD_SECONDS = TOKEN_MARGIN_SECONDS + TOKEN_REFRESH_BELOW_SECONDS;
/**
 * The shortest token lifetime the server accepts (TOKEN_LIFETIME_SECONDS): a token that lives no
 * longer than the refresh lead is due for refresh the moment it is issued, and a page keeps it
 * until it has expired.
 */
export const MIN_TOKEN_LIFETIME_SECONDS = TOKEN_REFRESH_LEAD_SECONDS + 1;
/** A token with this many seconds or fewer left counts as expired. */
export const TOKEN_EXPIRED_AT_SECONDS = 1;
export const QM_COOKIE = "dont-show-carely-qm-msg-again";
export const QM_COOKIE_CLOSE_DAYS = 1;
export const QM_COOKIE_NEVER_DAYS = 9999;
export const TUTORIAL_PROMPT_KEY = "carecampus.tutorial-prompt";
