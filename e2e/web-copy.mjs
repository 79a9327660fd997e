import os from "node:os";
import path from "node:path";

/** Where serve.mjs puts the copy of the web app a server on `port` serves (WEB_DIST_COPY=true). */
export function webCopyDir(port) {
  return path.join(os.tmpdir(), `cc-e2e-web-${port}`);
}
