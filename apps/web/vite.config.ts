import fs from "node:fs";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { withoutServerTexts } from "./src/i18n/server-only";

/** The language chunks without the texts only the server reads (src/i18n/server-only.ts). */
function webLocales(): Plugin {
  const LOCALE = /[\\/]src[\\/]i18n[\\/]locales[\\/][a-z]{2}\.json$/;
  return {
    name: "carecampus-web-locales",
    enforce: "pre",
    load(id) {
      if (!LOCALE.test(id)) return null;
      return JSON.stringify(withoutServerTexts(JSON.parse(fs.readFileSync(id, "utf8"))));
    },
  };
}

export default defineConfig({
  plugins: [webLocales(), react()],
  build: {
    outDir: "dist",
    sourcemap: false,
    rolldownOptions: {
      // Rolldown splits code shared by the lazy screens into many small chunks (160 files, 87 of
      // them under 2 KB): a screen loaded about 75 files, each a request and a module to set up,
      // which on a slow phone costs round trips and here most of the browser's time for a page.
      // Common chunks under 8 KB are copied into the chunks that read them (rolldown keeps one
      // module state across the copies): 66 files, a screen loads about 35, the login still only
      // what it needs (e2e/tests/bundle.spec.ts). Styles stay files of their own.
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          experimentalInlineCommonChunks: {
            maxSize: 8 * 1024,
            exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/,
          },
        },
      },
    },
  },
  server: { port: 5173, proxy: { "/api": "http://127.0.0.1:3000" } },
});
