import { ErrorCode, type SsoProviderInfo } from "@carecampus/contract";
import * as oidc from "openid-client";
import { AppError } from "../errors";
import { isLoopback, type SsoProvider } from "./settings";

/**
 * A provider that answered is asked again after this long: the login page's buttons say within
 * half a minute that a provider went down (and its keys and endpoints may move).
 */
const FRESH_MS = 30_000;
/** A provider that did not answer is tried again after this long; until then its button says unavailable. */
const RETRY_MS = 30_000;

interface Discovery {
  config: oidc.Configuration | null;
  at: number;
  pending: Promise<oidc.Configuration | null> | null;
}

/**
 * The configured identity providers and what their discovery documents say, cached per process.
 * Every request goes to the provider's own origin only: a discovery document that names an
 * endpoint elsewhere is refused (no outbound connection but to the configured provider).
 */
export class SsoProviders {
  private readonly discoveries = new Map<string, Discovery>();

  constructor(
    readonly list: readonly SsoProvider[],
    private readonly now: () => number = Date.now,
  ) {}

  get(id: string): SsoProvider {
    const provider = this.list.find((p) => p.id === id);
    if (!provider) throw new AppError(ErrorCode.notFound, "No such single sign-on provider");
    return provider;
  }

  /** What the login page shows: every provider, available when its discovery answered (asked now if due, in a few seconds at most). */
  async infos(): Promise<SsoProviderInfo[]> {
    return Promise.all(
      this.list.map(async (p) => ({ id: p.id, name: p.name, available: (await this.discover(p)) !== null })),
    );
  }

  /** The provider's configuration, or 503 (1112) when it does not answer. */
  async configOf(provider: SsoProvider): Promise<oidc.Configuration> {
    const config = await this.discover(provider);
    if (!config)
      throw new AppError(ErrorCode.ssoUnavailable, `The identity provider "${provider.name}" does not answer`);
    return config;
  }

  /** Forgets a provider's discovery (after a failed call: it is asked again at the next use). */
  forget(provider: SsoProvider): void {
    this.discoveries.delete(provider.id);
  }

  private discover(provider: SsoProvider): Promise<oidc.Configuration | null> {
    const known = this.discoveries.get(provider.id);
    const age = known ? this.now() - known.at : Number.POSITIVE_INFINITY;
    if (known?.pending) return known.pending;
    if (known && age < (known.config ? FRESH_MS : RETRY_MS)) return Promise.resolve(known.config);
    const entry: Discovery = { config: known?.config ?? null, at: known?.at ?? 0, pending: null };
    entry.pending = this.fetchDiscovery(provider).then(
      (config) => {
        Object.assign(entry, { config, at: this.now(), pending: null });
        return config;
      },
      () => {
        Object.assign(entry, { config: null, at: this.now(), pending: null });
        return null;
      },
    );
    this.discoveries.set(provider.id, entry);
    return entry.pending;
  }

  private async fetchDiscovery(provider: SsoProvider): Promise<oidc.Configuration> {
    const issuer = new URL(provider.issuer);
    const insecure = issuer.protocol === "http:" && isLoopback(issuer.hostname);
    const config = await oidc.discovery(
      issuer,
      provider.client_id,
      { client_secret: provider.client_secret },
      oidc.ClientSecretBasic(provider.client_secret),
      {
        timeout: provider.timeout_seconds,
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        [oidc.customFetch]: this.guardedFetch(issuer.origin),
      },
    );
    return config;
  }

  /** fetch, but only to `origin`; and within the provider's time limit (openid-client passes its signal). */
  private guardedFetch(origin: string): oidc.CustomFetch {
    return (url, options) => {
      if (new URL(url).origin !== origin) {
        return Promise.reject(
          new Error(`single sign-on: refused a request to ${new URL(url).origin}, not the provider's origin`),
        );
      }
      return fetch(url, options as RequestInit);
    };
  }
}
