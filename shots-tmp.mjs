import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const [path, width, scheme, out, selector] = process.argv.slice(2);
const page = await browser.newPage({ viewport: { width: Number(width), height: 1000 }, colorScheme: scheme });
await page.goto(`http://127.0.0.1:3300${path}`);
await page.waitForTimeout(800);
const target = page.locator(selector).first();
await target.screenshot({ path: out });
await browser.close();
