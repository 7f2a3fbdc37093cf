// The experiment page's charts in a real browser: runs of three variants (samples and a time
// series each) uploaded through the REST API with a key made in the UI; every chart kind draws
// its marks, the whisker and distribution toggles work, the baseline switches from the UI (table
// and charts follow), and a chart downloads as a standalone SVG and as a PNG.
import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createApiKeyViaUi, createProjectViaUi, uniqueSuffix } from "./helpers";
import { mulberry32, standardNormal } from "../server/stats/prng";

const VARIANTS = [
  { name: "plain", median: 12, tps: 950 },
  { name: "gzip", median: 9, tps: 1100 },
  { name: "brotli", median: 10, tps: 1050 },
] as const;
const RUNS = 4;

/** `rename`: another name for a variant (the phone test's long name). */
function runsToUpload(rename: Record<string, string> = {}) {
  let seed = 11;
  return Array.from({ length: RUNS }, (_, repetition) =>
    VARIANTS.map((variant) => {
      const random = mulberry32(seed++);
      const normal = () => standardNormal(random);
      return {
        variant: rename[variant.name] ?? variant.name,
        repetition,
        metrics: [
          {
            key: "latency",
            unit: "ms",
            direction: "lower_is_better",
            samples: Array.from({ length: 300 }, () => Math.exp(Math.log(variant.median) + 0.4 * normal())),
          },
          {
            key: "tps",
            unit: "req/s",
            direction: "higher_is_better",
            timeSeries: { intervalMs: 1000, values: Array.from({ length: 120 }, () => variant.tps + 30 * normal()) },
          },
        ],
      };
    }),
  ).flat();
}

/** The chart figure of `metric`/`kind`, once its one <svg> is drawn. */
async function drawnChart(page: Page, chartId: string): Promise<Locator> {
  const figure = page.locator(`figure[data-chart="${chartId}"]`);
  await expect(figure.locator("svg.recharts-surface")).toHaveCount(1);
  await expect(figure.locator("svg")).toHaveCount(1);
  await expect(figure.locator("figcaption")).not.toBeEmpty();
  return figure;
}

test("every chart kind draws; whiskers, histogram/CDF and log axis toggle; baseline switches; SVG and PNG download", async ({ page, baseURL }) => {
  const projectSlug = await createProjectViaUi(page, `Charts ${uniqueSuffix()}`);
  const key = await createApiKeyViaUi(page, projectSlug, "charts test");
  const uploaded = await fetch(`${baseURL}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ experiment: "codecs", experimentTitle: "Codecs", create: true, runs: runsToUpload() }),
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);

  await page.goto(`/p/${projectSlug}/e/codecs`);
  const charts = page.getByRole("region", { name: /^Charts/ });
  await expect(charts.getByRole("heading", { level: 2 })).toHaveText("Charts against plain");
  const latency = charts.getByRole("region", { name: /^latency/ });
  const tps = charts.getByRole("region", { name: /^tps/ });
  const latencyViews = latency.getByRole("group", { name: "Chart of latency" });
  // Only the views the data can draw: tps has no samples, so no percentiles or distribution.
  await expect(latencyViews.getByRole("button")).toHaveText(["Bars", "Percentiles", "Distribution", "Runs"]);
  await expect(tps.getByRole("group", { name: "Chart of tps" }).getByRole("button")).toHaveText(["Bars", "Runs", "Over time"]);

  // Bars: one per variant with whiskers and a value label; the baseline is named on the axis.
  let bars = await drawnChart(page, "latency/bars");
  await expect(bars.locator(".recharts-bar-rectangle")).toHaveCount(3);
  await expect(bars.locator(".recharts-errorBar")).toHaveCount(3);
  await expect(bars.locator("svg text").filter({ hasText: /^\d[\d.]* ms$/ })).not.toHaveCount(0);
  await expect(bars.locator('[data-variant-tick="plain"]')).toContainText("baseline");
  const whiskers = bars.getByRole("group", { name: "Whiskers" });
  await expect(whiskers.getByRole("button", { name: "Median, 95% CI" })).toHaveAttribute("aria-pressed", "true");
  await whiskers.getByRole("button", { name: "Mean ± sd" }).click();
  await expect(whiskers.getByRole("button", { name: "Mean ± sd" })).toHaveAttribute("aria-pressed", "true");
  await expect(bars.locator("figcaption")).toContainText("standard deviation");
  await expect(bars.locator(".recharts-bar-rectangle")).toHaveCount(3);

  // Downloads of exactly this chart: a standalone SVG and a PNG.
  const [svgDownload] = await Promise.all([page.waitForEvent("download"), bars.getByRole("button", { name: "SVG", exact: true }).click()]);
  expect(svgDownload.suggestedFilename()).toBe("codecs-latency-bars.svg");
  const svgText = fs.readFileSync(await svgDownload.path(), "utf8");
  expect(svgText).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svgText).toContain("recharts-bar-rectangle");
  // Colours are written out: the file has no stylesheet to resolve CSS variables with.
  expect(svgText).not.toContain("var(--");
  const [pngDownload] = await Promise.all([page.waitForEvent("download"), bars.getByRole("button", { name: "PNG", exact: true }).click()]);
  expect(pngDownload.suggestedFilename()).toBe("codecs-latency-bars.png");
  const png = fs.readFileSync(await pngDownload.path());
  expect(png.length).toBeGreaterThan(1000);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  // Percentiles: a line with five points per variant, and the log Y option.
  await latencyViews.getByRole("button", { name: "Percentiles" }).click();
  const percentiles = await drawnChart(page, "latency/percentiles");
  await expect(percentiles.locator(".recharts-line-curve")).toHaveCount(3);
  await expect(percentiles.locator(".recharts-line-dot")).toHaveCount(15);
  await expect(percentiles.locator("[data-legend-item]")).toHaveText(["plain", "gzip", "brotli"]);
  // Samples were uploaded: the merged histograms, not the runs' own summaries.
  await expect(percentiles.locator("figcaption")).toContainText("merged from the runs' HdrHistograms (plain: 1,200 samples");

  // Distribution: histogram areas, then the CDF lines; the log X axis toggles.
  await latencyViews.getByRole("button", { name: "Distribution" }).click();
  const distribution = await drawnChart(page, "latency/distribution");
  await expect(distribution.locator(".recharts-area-area")).toHaveCount(3);
  await distribution.getByRole("button", { name: "CDF" }).click();
  await expect(distribution.getByRole("button", { name: "CDF" })).toHaveAttribute("aria-pressed", "true");
  await expect(distribution.locator(".recharts-line-curve")).toHaveCount(3);
  await expect(distribution.locator("figcaption")).toContainText("CDF");
  const xAxis = distribution.getByRole("group", { name: "X axis" });
  const other = (await xAxis.getByRole("button", { name: "Log X" }).getAttribute("aria-pressed")) === "true" ? "Linear" : "Log X";
  await xAxis.getByRole("button", { name: other }).click();
  await expect(xAxis.getByRole("button", { name: other })).toHaveAttribute("aria-pressed", "true");
  await expect(distribution.locator(".recharts-line-curve")).toHaveCount(3);

  // Runs: a dot per run plus each variant's median mark.
  await latencyViews.getByRole("button", { name: "Runs" }).click();
  const strip = await drawnChart(page, "latency/runs");
  await expect(strip.locator(".recharts-scatter-symbol")).toHaveCount(RUNS * 3 + 3);

  // Over time: one line per run, coloured by variant, with a legend per variant.
  await tps.getByRole("button", { name: "Over time" }).click();
  const time = await drawnChart(page, "tps/time");
  await expect(time.locator(".recharts-line-curve")).toHaveCount(RUNS * 3);
  await expect(time.locator("[data-legend-item]")).toHaveText(["plain", "gzip", "brotli"]);

  // The keyboard reaches the chart toggles: Tab onto a view button and press it.
  await latencyViews.getByRole("button", { name: "Bars" }).focus();
  await page.keyboard.press("Enter");
  bars = await drawnChart(page, "latency/bars");
  await expect(bars.locator(".recharts-bar-rectangle")).toHaveCount(3);

  // Switch the baseline in the comparison's own control: the table and the charts follow.
  const comparison = page.getByRole("region", { name: /^Comparison/ });
  await comparison.getByRole("navigation", { name: "Baseline" }).getByRole("link", { name: "gzip" }).click();
  await expect(page).toHaveURL(/\?baseline=gzip$/);
  const latencyTable = comparison.getByRole("table", { name: "Comparison of latency" });
  await expect(latencyTable.getByRole("row", { name: /^gzip/ })).toContainText("baseline");
  await expect(latencyTable.getByRole("row", { name: /^plain/ })).toContainText(/[+−]\d/);
  await expect(charts.getByRole("heading", { level: 2 })).toHaveText("Charts against gzip");
  bars = await drawnChart(page, "latency/bars");
  await expect(bars.locator(".recharts-bar-rectangle")).toHaveCount(3);
  await expect(bars.locator('[data-variant-tick="gzip"]')).toContainText("baseline");
  await expect(bars.locator('[data-variant-tick="plain"]')).not.toContainText("baseline");
});

/** A variant name as long as people write them: it must wrap, not widen the table. */
const LONG_NAME = "HTTP/JSON with Jackson afterburner and gzip level 6 compression";

test("a phone-width page keeps the comparison table and the charts inside the screen, long variant names wrapped", async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const projectSlug = await createProjectViaUi(page, `Charts phone ${uniqueSuffix()}`);
  const key = await createApiKeyViaUi(page, projectSlug, "charts test");
  const uploaded = await fetch(`${baseURL}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ experiment: "codecs", create: true, runs: runsToUpload({ gzip: LONG_NAME }) }),
  });
  expect(uploaded.status).toBe(201);
  await page.goto(`/p/${projectSlug}/e/codecs`);
  const bars = await drawnChart(page, "latency/bars");
  await expect(bars.locator(".recharts-bar-rectangle")).toHaveCount(3);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
  // The table itself does not scroll sideways either: the long name wraps in its cell.
  const table = page.getByRole("table", { name: "Comparison of latency" });
  await expect(table.getByRole("row").filter({ hasText: LONG_NAME })).toBeVisible();
  const tableOverflow = await table.evaluate(
    (element) => (element.parentElement as HTMLElement).scrollWidth - (element.parentElement as HTMLElement).clientWidth,
  );
  expect(tableOverflow).toBe(0);
  const box = await bars.locator("svg").boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
});
