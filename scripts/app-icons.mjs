// Draws the installable app's icons (apps/web/public/icons) from the logo mark, in Chromium:
// 192 and 512 px on white, a 512 px "maskable" one whose mark keeps within the 80 % safe zone
// that launchers may cut to a circle or a rounded square, and a 180 px one for iOS's home screen.
// Run again when the logo changes: node scripts/app-icons.mjs
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const mark = fs.readFileSync(path.join(root, "apps/web/src/assets/logo-mark.svg"), "utf8");
const out = path.join(root, "apps/web/public/icons");
fs.mkdirSync(out, { recursive: true });

/** [file, size in px, share of the side the mark takes] */
const ICONS = [
  ["icon-192.png", 192, 0.84],
  ["icon-512.png", 512, 0.84],
  ["icon-maskable-512.png", 512, 0.6],
  ["apple-touch-icon.png", 180, 0.78],
];

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const [file, size, share] of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const inner = Math.round(size * share);
    await page.setContent(
      `<html><body style="margin:0;width:${size}px;height:${size}px;background:#fff;display:grid;place-items:center">` +
        `<div style="width:${inner}px;height:${inner}px">${mark.replace("<svg ", '<svg width="100%" height="100%" ')}</div></body></html>`,
    );
    await page.screenshot({ path: path.join(out, file), omitBackground: false });
    await page.close();
    console.log(`${file}: ${size} × ${size}`);
  }
} finally {
  await browser.close();
}
