// The Alerts page mentions the change points the history found that nobody reviewed, without any
// alert rule: the Examples' history (gzip over 300 commits) has two.
import { expect, test } from "@playwright/test";

test("the Alerts page lists the example history's open change points, linked to their history", async ({ page }) => {
  // The change points are computed in the background after the example data loads.
  await expect(async () => {
    await page.goto("/p/examples/alerts");
    await expect(page.getByRole("table", { name: "Open change points" })).toContainText("gzip-history", { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  const table = page.getByRole("table", { name: "Open change points" });
  const row = table.locator("tbody tr", { hasText: "compress_time" }).first();
  await expect(row).toContainText("gzip");
  await expect(row).toContainText(/regression|improvement|\+\d|−\d/);
  await row.getByRole("link", { name: "compress_time" }).click();
  await expect(page).toHaveURL(/\/p\/examples\/e\/gzip-history\/history\?metric=compress_time&variant=gzip$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("History");
});
