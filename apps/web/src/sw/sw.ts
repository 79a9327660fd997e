/// <reference lib="webworker" />
import { ErrorCode, errorStatus } from "@carecampus/contract";
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import {
  CERTIFICATE_PDF_PATH,
  CONTENT_ICON_PATH,
  COPY_KEY,
  certificateOf,
  certificatePdfKey,
  certificatesOf,
  OFFLINE_CACHE,
  withoutToken,
} from "../offline/keys";

/*
 * The service worker (issue 30), built by vite-plugin-pwa (injectManifest) with Workbox:
 * - the build's scripts, styles, language chunks and icons are precached, so the app starts
 *   without a network; a new build's worker waits until the app says the user agreed (the
 *   update prompt, app/service-worker.ts), never in the middle of a quiz;
 * - pages are network-first: every address is the same index.html with the installation's
 *   settings, kept under one key and answered from there only when the network fails or takes
 *   longer than SHELL_TIMEOUT_S;
 * - /api is never answered from a cache, except, without a network, the PDFs of the certificates
 *   in the device-kept copy of "my certificates" (offline/keys.ts), kept when they were opened
 *   online, and the content's topic and training icons.
 */

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

/** The build's files, injected at build (one mention only: Workbox replaces exactly one). */
const PRECACHE = self.__WB_MANIFEST;
/** This build's name: the shell kept for it must load this build's scripts, not a newer one's. */
const BUILD = (() => {
  let hash = 5381;
  for (const c of JSON.stringify(PRECACHE)) hash = ((hash * 33) ^ c.charCodeAt(0)) >>> 0;
  return hash.toString(36);
})();
const SHELL_PREFIX = "carecampus-shell-";
const SHELL_CACHE = `${SHELL_PREFIX}${BUILD}`;
const SHELL_KEY = "/";
const ICON_CACHE = "carecampus-content-icons";
/** On weak ward Wi-Fi the kept page is shown after this long rather than a blank screen. */
const SHELL_TIMEOUT_S = 4;

precacheAndRoute(PRECACHE);
cleanupOutdatedCaches();

// The page itself is kept at install, so that the app starts offline even if the pages so far
// were all loaded before this worker took over; every later page load online renews it.
self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const page = await fetch(SHELL_KEY, { cache: "no-store" });
      if (page.ok) await (await caches.open(SHELL_CACHE)).put(SHELL_KEY, page);
    })().catch(() => undefined),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE) await caches.delete(name);
      }
    })(),
  );
});

// Taking the page over at the first install costs nothing (the same build); later versions wait.
clientsClaim();

self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

/** Is this certificate one of the device-kept copy's (the learner's own)? */
async function inCopy(url: URL): Promise<string | null> {
  const ref = certificateOf(url);
  if (!ref) return null;
  const copy = await (await caches.open(OFFLINE_CACHE)).match(COPY_KEY);
  if (!copy) return null;
  try {
    const { progress } = (await copy.json()) as { progress: Parameters<typeof certificatesOf>[0] };
    const own = certificatesOf(progress).some((c) => c.id === ref.id && c.partner === ref.partner);
    return own ? certificatePdfKey(ref) : null;
  } catch {
    return null;
  }
}

/** A certificate PDF: from the network, kept when it is the learner's own; offline from the copy. */
async function certificatePdf({ request, url }: { request: Request; url: URL }): Promise<Response> {
  const key = await inCopy(url);
  try {
    const response = await fetch(request);
    const pdf = response.ok && (response.headers.get("content-type") ?? "").startsWith("application/pdf");
    if (key && pdf) await (await caches.open(OFFLINE_CACHE)).put(key, response.clone());
    return response;
  } catch {
    const kept = key ? await (await caches.open(OFFLINE_CACHE)).match(key) : undefined;
    if (kept) return kept;
    // The spec's error body (§8): not reachable now, and not kept on this device.
    const status = errorStatus[ErrorCode.busy];
    const message = "Offline: this certificate has not been kept on this device";
    return Response.json({ error_code: ErrorCode.busy, message, status_code: status }, { status });
  }
}

registerRoute(({ url, request }) => request.method === "GET" && url.pathname === CERTIFICATE_PDF_PATH, certificatePdf);

// The topic and training icons the copy shows (content, the same for everyone): network-first as
// today, kept without the token for when there is no network.
registerRoute(
  ({ url, request }) => request.method === "GET" && url.pathname.startsWith(CONTENT_ICON_PATH),
  new NetworkFirst({
    cacheName: ICON_CACHE,
    plugins: [{ cacheKeyWillBeUsed: async ({ request }) => withoutToken(request.url) }],
  }),
);

registerRoute(
  new NavigationRoute(
    new NetworkFirst({
      cacheName: SHELL_CACHE,
      networkTimeoutSeconds: SHELL_TIMEOUT_S,
      plugins: [
        {
          cacheKeyWillBeUsed: async () => SHELL_KEY,
          // Only the app's page is kept: not an error, not a redirect.
          cacheWillUpdate: async ({ response }) =>
            response.status === 200 && (response.headers.get("content-type") ?? "").startsWith("text/html")
              ? response
              : null,
        },
      ],
    }),
    // Not the app's pages: the API, the server's own pages for inspectors (/v, /v/{code},
    // /v/credential) and /.well-known — kept as the shell they would replace the app offline.
    { denylist: [/^\/api\//, /^\/v(\/|$)/, /^\/\.well-known\//] },
  ),
);
