/**
 * The server package's directory (apps/server/). This file sits one level below it, as does
 * the bundle `npm start` runs (dist/main.mjs), so the same URL holds in both: every other
 * file path of the server is taken from here, never from its own file's location.
 */
export const SERVER_DIR = new URL("../", import.meta.url);

/** A path relative to apps/server/. */
export const serverPath = (relative: string) => new URL(relative, SERVER_DIR).pathname;
