// Starts one CareCampus server for the browser tests on a fresh, throw-away data directory.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { webCopyDir } from "./web-copy.mjs";

const [port, ...pairs] = process.argv.slice(2);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cc-e2e-${port}-`));
// Cheap password hashes: the tests make and check hundreds of throw-away passwords.
const env = {
  ...process.env,
  PORT: port,
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
  TEST_PASSWORD_HASHING: "true",
};
delete env.DATABASE_URL;
for (const pair of pairs) {
  const i = pair.indexOf("=");
  env[pair.slice(0, i)] = pair.slice(i + 1);
}
const root = new URL("..", import.meta.url).pathname;
// WEB_DIST_COPY=true: the server serves a copy of the built web app that a test may change (a new
// service worker for the update prompt, offline.spec.ts), at the place webCopyDir names.
let webCopy;
if (env.WEB_DIST_COPY === "true") {
  webCopy = webCopyDir(port);
  fs.rmSync(webCopy, { recursive: true, force: true });
  fs.cpSync(path.join(root, "apps/web/dist"), webCopy, { recursive: true });
  env.WEB_DIST = webCopy;
}
// TRANSLATION_PEER=true: the machine translation test peer (LibreTranslate's protocol, fake
// translations) runs in this process, and the server uses it for its suggestions (issue 31).
let peer;
if (env.TRANSLATION_PEER === "true") {
  const { startTranslationPeer } = await import("../apps/server/test/translation-peer.mjs");
  peer = await startTranslationPeer();
  env.MACHINE_TRANSLATION_URL = peer.url;
}
delete env.TRANSLATION_PEER;
// The bundle `npm start` runs (npm run e2e builds it first): the tests see what users get.
const child = spawn(process.execPath, ["--enable-source-maps", "apps/server/dist/main.mjs"], {
  cwd: root,
  env,
  stdio: "inherit",
});
const stop = () => child.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("exit", (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (webCopy) fs.rmSync(webCopy, { recursive: true, force: true });
  if (peer) void peer.close();
  process.exit(code ?? 0);
});
