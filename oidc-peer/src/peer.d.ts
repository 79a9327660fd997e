/** TEST PEER — the reference OpenID Connect identity provider (see peer.js). */
export interface PeerAccount {
  login: string;
  password: string;
  claims: Record<string, unknown>;
}
export interface PeerClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  client_name?: string;
}
export declare const DEMO_ACCOUNTS: PeerAccount[];
export interface OidcPeer {
  issuer: string;
  accounts: PeerAccount[];
  setMischief(kind: null | "issuer" | "expired" | "foreign"): void;
  setDown(down: boolean): void;
  setHang(hang: boolean): void;
  logins: string[];
  close(): Promise<void>;
}
export declare function startOidcPeer(options: {
  port?: number;
  clients: PeerClient[];
  accounts?: PeerAccount[];
}): Promise<OidcPeer>;
