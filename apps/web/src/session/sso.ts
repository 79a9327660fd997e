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
