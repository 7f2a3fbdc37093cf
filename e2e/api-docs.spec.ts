// The REST API page on a phone: nothing widens the page past the screen (a long path breaks in its
// heading, code scrolls in its own box), and the OpenAPI descriptions are rendered Markdown, not
// text with backticks.
import { expect, test } from "@playwright/test";

test("/api-docs fits a 390 px screen and renders its descriptions' Markdown", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/api-docs");
  await expect(page.getByRole("heading", { level: 1, name: "REST API" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);

  // The imports route's description names each format in backticks: code elements, no backticks left.
  const imports = page.getByRole("region", { name: "POST /api/v1/imports" });
  await expect(imports.locator(".prose code", { hasText: /^jmh$/ })).toBeVisible();
  await expect(imports.locator(".prose").first()).not.toContainText("`");
});
