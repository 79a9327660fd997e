// The Chromium every browser run of the project uses (the e2e tests, the tutorial's screenshots,
// the bench's slow phone): Debian's package, never a download. Its headless shell (package
// chromium-headless-shell, the same Chromium without the window layer) where it is installed,
// else Chromium; CHROMIUM_PATH chooses another.
import fs from "node:fs";

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

/** The flags every run passes: no sandbox (containers), no GPU, no QUIC, nothing fetched in the background. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Chromium's environment: the caller's, in a UTF-8 locale whatever the shell's. Chromium names a
 * download in the locale's character set; in the C locale (LANG unset, as in a bare CI shell) a
 * name with an "ä" cannot be written and the file is called "download" instead of its own name.
 */
export const CHROMIUM_ENV = { ...process.env, LC_ALL: "C.UTF-8" };
