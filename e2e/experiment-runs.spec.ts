// The history example (900 runs of one variant over 300 commits) on its experiment page: each list
// of runs shows a first page and pages through the rest, and the Method box says what is stored
// beside what was planned. It was 30,400 px tall with 200 runs in each table and "3 per variant".
import { expect, test } from "@playwright/test";
import { runsOf } from "./helpers";

const PAGE = "/p/examples/e/gzip-history";

test("the runs and each metric's results show 20 rows at a time and page through all 900", async ({ page }) => {
  await page.goto(PAGE);
  const runs = page.getByRole("table", { name: "Runs", exact: true });
  await expect(runs.locator("tbody tr")).toHaveCount(20);
  const pager = page.getByRole("navigation", { name: "Pages of runs", exact: true });
  await expect(pager).toContainText("Showing 1–20 of 900 runs");
  const firstRun = await runs.locator("tbody tr").first().getAttribute("id");

  await pager.getByRole("button", { name: "Next" }).click();
  await expect(pager).toContainText("Showing 21–40 of 900 runs");
  await expect(runs.locator("tbody tr")).toHaveCount(20);
  await expect(runs.locator("tbody tr").first()).not.toHaveAttribute("id", firstRun ?? "");
  await pager.getByRole("button", { name: "Previous" }).click();
  await expect(pager).toContainText("Showing 1–20 of 900 runs");
  await expect(runs.locator("tbody tr").first()).toHaveAttribute("id", firstRun ?? "");

  // Each metric's table pages on its own, in the comparison's order (variant, then repetition).
  for (const metric of ["compress_time", "compressed_bytes"]) {
    const table = await runsOf(page, metric);
    await expect(table.locator("tbody tr")).toHaveCount(20);
    await expect(table.locator("tbody tr").first().locator("td").nth(1)).toHaveText("0");
  }
  const timeTable = await runsOf(page, "compress_time");
  const timePager = page.getByRole("navigation", { name: "Pages of runs of compress_time" });
  await expect(timePager).toContainText("Showing 1–20 of 900 runs");
  await timePager.getByRole("button", { name: "Next" }).click();
  await expect(timePager).toContainText("Showing 21–40 of 900 runs");
  await expect(timeTable.locator("tbody tr").first().locator("td").nth(1)).toHaveText("20");
  // The runs list stays where it was.
  await expect(pager).toContainText("Showing 1–20 of 900 runs");
});

test("the Method box says what was stored beside what was planned", async ({ page }) => {
  await page.goto(PAGE);
  const method = page.getByRole("region", { name: "Method" });
  await expect(method.locator("dt", { hasText: "Measured runs" }).locator("+ dd")).toHaveText("3 per variant planned, 900 runs stored");
});
