import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";

/*
 * Course icons are the one address of the partner's answer the server itself fetches, so a
 * hostile or compromised partner must not turn it into a way into the server's network
 * (docs/partner-contract.md "Course icons"). An icon is fetched only from an allowed origin,
 * over https when so configured, from a public address (checked when the connection is made,
 * so a name that resolves elsewhere the second time gains nothing), without following
 * redirects, within a size and a time limit. Anything else is no icon.
 */

export interface IconPolicy {
  /** The partner's own origin and the configured others (EXTERNAL_COURSES_ICON_ORIGINS). */
  origins: ReadonlySet<string>;
  /**
   * The partner's configured origin when its host is itself a loopback or private address (or
   * localhost): the server calls that address anyway, so its icons skip the address check.
   */
  ownLocalOrigin: string | null;
  /** Only https addresses (NODE_ENV=production). */
  httpsOnly: boolean;
  timeoutMs: number;
  maxBytes: number;
  types: ReadonlySet<string>;
}

export interface Icon {
  type: string;
  bytes: Buffer;
}

/** Everything that is not the public internet: loopback, private, link-local (metadata), shared, reserved. */
const NOT_PUBLIC = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, "ipv4");
}
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  // NAT64, 6to4 and Teredo carry an IPv4 address that may be a private one.
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, "ipv6");
}

/** True for an IP address of the public internet (IPv4-mapped IPv6 counts as its IPv4 address). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/** The partner's configured origin if its host is a loopback or private address literal, or localhost. */
export function localOriginOf(partnerUrl: string): string | null {
  const url = new URL(partnerUrl);
  const host = bareHost(url);
  const local = host === "localhost" || (net.isIP(host) !== 0 && !isPublicAddress(host));
  return local ? url.origin : null;
}

/** The icon's address when the policy allows asking it at all, else null. */
function allowedUrl(raw: string, policy: IconPolicy): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && (policy.httpsOnly || url.protocol !== "http:")) return null;
  if (url.username || url.password || !policy.origins.has(url.origin)) return null;
  return url;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** dns.lookup for the connection, refusing a name that resolves to any address that is not public. */
function publicLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "");
    const first = addresses[0];
    if (!first || addresses.some((a) => !isPublicAddress(a.address))) {
      const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to an address that is not public`);
      refused.code = "ENOTPUBLIC";
      return callback(refused, "");
    }
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
}

/** Fetches one course icon under the policy; null when refused, missing, odd, too big or too late. */
export function fetchIcon(raw: string, policy: IconPolicy): Promise<Icon | null> {
  const url = allowedUrl(raw, policy);
  if (!url) return Promise.resolve(null);
  const checked = url.origin !== policy.ownLocalOrigin;
  const host = bareHost(url);
  // An address literal is connected to without a lookup: it is checked here.
  if (checked && net.isIP(host) !== 0 && !isPublicAddress(host)) return Promise.resolve(null);

  return new Promise((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    const finish = (icon: Icon | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve(icon);
    };
    // One limit for the whole answer, however slowly it trickles in.
    const timer = setTimeout(() => finish(null), policy.timeoutMs);
    const get = url.protocol === "https:" ? https.get : http.get;
    try {
      request = get(
        url,
        {
          // A fresh connection per icon: the lookup (and its check) runs for each.
          agent: false,
          ...(checked ? { lookup: publicLookup as unknown as net.LookupFunction } : {}),
          headers: { accept: [...policy.types].join(", ") },
        },
        (response) => {
          const type = (response.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
          const declared = Number(response.headers["content-length"] ?? 0);
          // No redirect is followed: a 3xx, like any answer but 200, is no icon.
          if (response.statusCode !== 200 || !policy.types.has(type) || declared > policy.maxBytes) return finish(null);
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > policy.maxBytes) return finish(null);
            chunks.push(chunk);
          });
          response.on("end", () => finish(response.complete ? { type, bytes: Buffer.concat(chunks) } : null));
          response.on("error", () => finish(null));
        },
      );
      request.on("error", () => finish(null));
    } catch {
      finish(null);
    }
  });
}
