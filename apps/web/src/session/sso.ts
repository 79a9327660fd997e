/**
 * Single sign-on (issue 32): which provider this browser's session came from, so logging out
 * also ends the provider's session (GET /api/auth/sso/{provider}/logout). Kept beside the
 * session; a password login forgets it.
 */
const KEY = "carecampus.sso";

export function rememberSsoProvider(provider: string | null): void {
  try {
    if (provider) localStorage.setItem(KEY, provider);
    else localStorage.removeItem(KEY);
  } catch {
    // storage unavailable: the provider's session then stays until it ends by itself
  }
}

/** The provider of the session that is ending, forgotten as it is read. */
export function takeSsoProvider(): string | null {
  try {
    const provider = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
    return provider && /^[a-z0-9][a-z0-9-]{0,39}$/.test(provider) ? provider : null;
  } catch {
    return null;
  }
}

const NONCE_KEY = "carecampus.sso-nonce";

/** A new random value for a login this app begins (its link carries it; the session comes back with it). */
export function newSsoNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Kept as the person follows a provider's link (shared by this browser's tabs: a link opened in a new tab works too). */
export function keepSsoNonce(nonce: string): void {
  try {
    localStorage.setItem(NONCE_KEY, nonce);
  } catch {
    // storage unavailable: the returning session cannot be matched and is not taken
  }
}

/** Whether `nonce` is the one this browser's login began with; used once. */
export function takeSsoNonce(nonce: string | null): boolean {
  try {
    const kept = localStorage.getItem(NONCE_KEY);
    localStorage.removeItem(NONCE_KEY);
    return kept !== null && nonce !== null && kept === nonce;
  } catch {
    return false;
  }
}
