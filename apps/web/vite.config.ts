import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { localePart, withoutServerTexts } from "./src/i18n/server-only";

/**
 * The language chunks without the texts only the server reads (src/i18n/server-only.ts), each
 * language in two: `?core`, what the login shows, and `?rest`, the screens behind it.
 */
export function webLocales(): Plugin {
  const LOCALE = /[\\/]src[\\/]i18n[\\/]locales[\\/][a-z]{2}\.json(\?(core|rest))?$/;
  return {
    name: "carecampus-web-locales",
    enforce: "pre",
    load(id) {
      const match = LOCALE.exec(id);
      if (!match) return null;
      const locale = JSON.parse(fs.readFileSync(id.replace(/\?.*$/, ""), "utf8"));
      const part = match[2] as "core" | "rest" | undefined;
      if (!part) return JSON.stringify(withoutServerTexts(locale));
      // With a query Vite's JSON plugin leaves the file alone: a module of its own, parsed at once.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(localePart(locale, part)))});`;
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Every text asset also as `.br` (Brotli at its best, quality 11) and `.gz` (level 9), written once
 * at build: the server sends the file that fits the browser's Accept-Encoding (@fastify/static
 * preCompressed) instead of compressing on each request at the speed-minded quality 4, whose
 * Brotli was larger than gzip. Here 3.8 MB of assets: 1.23 MB gzipped, 1.04 MB as Brotli.
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "carecampus-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(_options, bundle) {
      const texts = Object.keys(bundle).filter((file) => /\.(js|css|svg|json|webmanifest)$/.test(file));
      await Promise.all(
        texts.map(async (file) => {
          const full = path.resolve(outDir, file);
          const bytes = fs.readFileSync(full);
          if (bytes.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzip(bytes, { level: 9 }),
          ]);
          fs.writeFileSync(`${full}.br`, br);
          fs.writeFileSync(`${full}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * The service worker (src/sw/sw.ts, issue 30): Workbox, its precache list injected at build. The
 * page registers it itself (app/service-worker.ts, with the update prompt); the web app manifest
 * is public/manifest.webmanifest. index.html is not precached: the server writes the
 * installation's settings into it, so the worker keeps the page it last got (network-first).
 */
function serviceWorker(): Plugin[] {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "src/sw",
    filename: "sw.ts",
    registerType: "prompt",
    injectRegister: false,
    manifest: false,
    injectManifest: {
      rollupFormat: "iife",
      globPatterns: ["**/*.{js,css,svg,png,webmanifest}"],
      globIgnores: ["**/*.br", "**/*.gz", "index.html", "sw.js"],
      // The largest script (the rich-text editor's) is 0.5 MB; nothing may be left out unseen.
      maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    },
  });
}

export default defineConfig({
  plugins: [webLocales(), react(), precompress(), serviceWorker()],
  build: {
    outDir: "dist",
    sourcemap: false,
    rolldownOptions: {
      // Rolldown splits code shared by the lazy screens into many small chunks (160 files, 87 of
      // them under 2 KB): a screen loaded about 75 files, each a request and a module to set up,
      // which on a slow phone costs round trips and here most of the browser's time for a page.
      // Common chunks under 24 KB (before compression) are copied into the chunks that read them
      // (rolldown keeps one module state across the copies): 72 files, the start page's first visit
      // loads 18 scripts (22 at 8 KB; over HTTP/1.1 six requests travel at a time, each a round
      // trip on a slow phone: `BENCH_ONLY=slow-start npm run bench` about 0.1–0.2 s sooner), the
      // login still only what it needs (e2e/tests/bundle.spec.ts). The price: the copies make all
      // scripts together 10 % larger (1.15 MB as Brotli), which the service worker fetches once per
      // version after the first screen. Styles stay files of their own.
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          experimentalInlineCommonChunks: {
            maxSize: 24 * 1024,
            exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/,
          },
        },
      },
    },
  },
  server: { port: 5173, proxy: { "/api": "http://127.0.0.1:3000" } },
});
