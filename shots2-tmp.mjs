import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
async function shot(path, width, scheme, button, figure, out) {
  const page = await browser.newPage({ viewport: { width, height: 1000 }, colorScheme: scheme });
  await page.goto(`http://127.0.0.1:3300${path}`);
  await page.waitForTimeout(1000);
  const fig = page.locator(`figure[data-chart^="${figure}/"]`).first();
  const group = page.locator(`section:has(figure[data-chart^="${figure}/"])`).first();
  if (button) await page.getByRole("button", { name: button, exact: true }).first().click();
  await page.waitForTimeout(500);
  await page.locator(`figure[data-chart^="${figure}/"]`).first().screenshot({ path: out });
  await page.close();
}
await shot("/p/examples/e/s3-upload-plain-vs-gzip", 1280, "light", "Distribution", "upload_latency_ms_email", "/tmp/d1.png");
await shot("/p/examples/e/http-vs-grpc-1mb", 1280, "dark", "Over time", "throughput_rps", "/tmp/d2.png").catch((e) => console.log("d2", e.message.slice(0, 200)));
await shot("/p/examples/e/http-vs-grpc-1mb", 390, "light", "Percentiles", "latency_ms", "/tmp/d3.png").catch((e) => console.log("d3", e.message.slice(0, 200)));
await shot("/p/examples/e/upload-cpu-sdk-jce-provider", 1280, "light", "Runs", "upload_time_s", "/tmp/d4.png").catch((e) => console.log("d4", e.message.slice(0, 200)));
await browser.close();
