/** How long no script, style, image or API answer may have arrived for the page to count as settled. */
const QUIET_MS = 2_000;
/** The longest wait (a page that keeps loading, e.g. a video). */
const AT_MOST_MS = 15_000;

/**
 * Resolves once the page has loaded and then nothing has arrived over the network for QUIET_MS:
 * the first screen is complete. Work that is not the first screen's — the service worker's
 * download of the whole app — waits for it, instead of sharing a slow phone's connection with it.
 */
export function whenSettled(): Promise<void> {
  return new Promise((resolve) => {
    const start = () => {
      let quiet = window.setTimeout(done, QUIET_MS);
      const limit = window.setTimeout(done, AT_MOST_MS);
      const observer =
        typeof PerformanceObserver === "undefined"
          ? null
          : new PerformanceObserver(() => {
              window.clearTimeout(quiet);
              quiet = window.setTimeout(done, QUIET_MS);
            });
      observer?.observe({ type: "resource" });
      function done() {
        window.clearTimeout(quiet);
        window.clearTimeout(limit);
        observer?.disconnect();
        resolve();
      }
    };
    if (document.readyState === "complete") start();
    else window.addEventListener("load", start, { once: true });
  });
}
