import fs from "node:fs";
import path from "node:path";
import { ErrorCode, SETTING_NAMES, type Settings, settingsToStrings } from "@carecampus/contract";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { errorBody } from "../errors";
import { isApiPath } from "../http/api-path";

const escapeAttr = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** index.html with the spec §9 settings written as <meta> tags (ARCHITECTURE decision 12). */
export function renderIndex(html: string, settings: Settings): string {
  const values = settingsToStrings(settings);
  const tags = SETTING_NAMES.map((n) => `<meta name="${n}" content="${escapeAttr(values[n])}">`).join("\n    ");
  return html.replace("</head>", `  ${tags}\n  </head>`);
}

/**
 * Files the browser must ask for again each time: the service worker (a new build's worker is
 * found at once and offered with the update prompt) and the web app manifest.
 */
const ASKED_EACH_TIME = new Set(["sw.js", "manifest.webmanifest"]);

/**
 * Serves the built single-page app: hashed assets with long caching, index.html (with the
 * settings) for every other GET that is not under /api or /assets. Unknown /api paths and
 * missing assets answer 404.
 */
export async function registerSpa(app: FastifyInstance, distDir: string, settings: Settings): Promise<void> {
  const indexFile = path.join(distDir, "index.html");
  const index = fs.existsSync(indexFile) ? renderIndex(fs.readFileSync(indexFile, "utf8"), settings) : undefined;
  if (index) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      cacheControl: false,
      wildcard: false,
      // The build wrote each text asset also as .br and .gz (apps/web/vite.config.ts): sent as
      // the browser accepts, not compressed again on every request.
      preCompressed: true,
      // index.html goes out only with its settings, through the not-found handler below.
      allowedPath: (pathName) => pathName !== "/index.html",
      setHeaders: (reply, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header("cache-control", "public, max-age=31536000, immutable");
        } else if (ASKED_EACH_TIME.has(path.basename(filePath))) {
          reply.header("cache-control", "no-cache");
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split("?")[0] ?? "";
    if (
      isApiPath(url) ||
      // A chunk of an older build (rolling deploy) is missing, not the app: the client sees the
      // failed load and offers a reload instead of running HTML as a script.
      url.startsWith("/assets/") ||
      !index ||
      (request.method !== "GET" && request.method !== "HEAD")
    ) {
      return reply.status(404).send(errorBody(ErrorCode.notFound, 404, "Not found"));
    }
    return reply.type("text/html; charset=utf-8").header("cache-control", "no-cache").send(index);
  });
}
