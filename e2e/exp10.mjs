import { chromium } from "playwright-core";

const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
await p.goto("http://127.0.0.1:3311/theme-gallery");
await p.waitForSelector("[data-testid=gallery-items]");
await p.waitForTimeout(1000);
console.log(
  await p.evaluate(() =>
    [...document.querySelectorAll("[role=menu],[role=tooltip],.mantine-Popover-dropdown")].map((e) => {
      const s = getComputedStyle(e);
      return `${e.getAttribute("role")} display=${s.display} vis=${s.visibility} op=${s.opacity} ${JSON.stringify(e.getBoundingClientRect())} ${e.getAttribute("style")}`;
    }),
  ),
);
await b.close();
