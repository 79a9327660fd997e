import { TOAST_MS } from "@carecampus/contract";
import { showToast } from "../app/Toasts";
import i18n from "../i18n";
import { sessionStore } from "../session/store";
import { ApiError, createCaller } from "./call";

export { ApiError } from "./call";

/**
 * Spec §8 toast text. A code the UI has words for is shown in the user's language first (the server's
 * message is English, for API integrators); then the server's message; then 'Error: {status}'.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    // Status 0: no answer came (offline, the connection dropped), not an error of the server's.
    if (error.status === 0) return i18n.t("errors.network");
    const code = error.code;
    if (code !== undefined && i18n.exists(`errors.${code}`)) return i18n.t(`errors.${code}`);
    if (error.body?.message) return error.body.message;
    return i18n.t("errors.status", { status: error.status });
  }
  return i18n.t("errors.network");
}

/** A toast's close button says what it does (axe: button-name). */
const closeButtonProps = () => ({ "aria-label": i18n.t("common.close") });

export function showError(error: unknown): void {
  showToast({
    color: "red",
    message: errorText(error),
    autoClose: TOAST_MS,
    withBorder: true,
    closeButtonProps: closeButtonProps(),
  });
}

export function showSuccess(message: string): void {
  showToast({
    color: "teal",
    message,
    autoClose: TOAST_MS,
    withBorder: true,
    closeButtonProps: closeButtonProps(),
  });
}

/**
 * `call(api.x, { params, query, body, signal, silent })`: the one way to the API, typed by
 * the contract's endpoint table. `authedUrl(api.x, { params, query })` for files and
 * downloads; `authedHref(href)` for a download link the server handed out.
 */
export const { call, authedUrl, authedHref } = createCaller({
  token: () => sessionStore.get().session?.token,
  onSessionEnd: () => sessionStore.clear(),
  // Without a network every screen already says so (app/OfflineNotice.tsx): no toast for each call.
  onError: (error) => {
    if (error.status === 0 && typeof navigator !== "undefined" && !navigator.onLine) return;
    showError(error);
  },
});

/**
 * The props of a link to a download that carries the session's token in its query (decision
 * 9). Tokens are refreshed every few minutes, so the address is made again at the click: a
 * page left open does not open a link with an expired token (which would show raw JSON).
 */
export function freshLink(makeUrl: () => string): {
  href: string;
  onClick: (e: React.MouseEvent<HTMLAnchorElement>) => void;
  onAuxClick: (e: React.MouseEvent<HTMLAnchorElement>) => void;
} {
  const renew = (e: React.MouseEvent<HTMLAnchorElement>) => {
    e.currentTarget.href = makeUrl();
  };
  return { href: makeUrl(), onClick: renew, onAuxClick: renew };
}
