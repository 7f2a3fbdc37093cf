// The runnable examples' pages on a phone-sized screen: their descriptions carry commands (the
// JVM agent's build and start lines) and their variants carry workload settings; neither may
// widen the page past the screen (a long line scrolls inside its own block).
import { expect, test } from "@playwright/test";

for (const slug of [
  "gzip-payloads-runnable",
  "http-keepalive-runnable",
  "serializer-objectmapper-runnable",
  "s3-upload-mail-runnable",
  "s3-upload-sms-runnable",
  "upload-cpu-provider-runnable",
  "http-vs-grpc-1mb-runnable",
  "cache-scale-out-runnable",
]) {
  test(`the runnable example ${slug} fits a 390 px screen`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/p/examples/e/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Variants" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
  });
}
