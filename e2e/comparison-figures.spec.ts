// One figure, one way of printing it, on every screen: the comparison table and the bar chart
// print a variant's median alike (the table said "420 [280, 520]" where the chart said
// "417 req/s", and 10,892 where the chart said "10.6 KB"); a change beyond +100% is a factor
// ("410×", not "+40914.41%"); no p stands beside "not enough data"; and on a 390 px phone every
// figure of the comparison — runs, median and CI, mean ± sd, min … max, change, p, verdict — is
// on screen, as one card per variant, on the experiment page and on its share page.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createApiKeyViaUi, createProjectViaUi, uniqueSuffix } from "./helpers";

const TITLE = "Payload sizes and throughput";
const SLUG = "payloads";
// Five runs of the baseline and of gzip (enough for a verdict between three variants at α = 0.05
// with Holm's correction); three of brotli (not enough: its row says so, without a p).
const BYTES = [10_892, 10_950, 10_840, 10_910, 10_870];
const THROUGHPUT = { plain: [400, 417, 430, 280, 520], gzip: [300, 310, 295, 305, 320], brotli: [410, 405, 415] };

function runs() {
  const run = (variant: string, repetition: number, bytes: number, throughput: number) => ({
    variant,
    repetition,
    metrics: [
      { key: "payload_bytes", unit: "B", direction: "lower_is_better", summary: { n: 1, mean: bytes } },
      { key: "throughput", unit: "req/s", direction: "higher_is_better", summary: { n: 1, mean: throughput } },
    ],
  });
  return [
    ...BYTES.map((bytes, i) => run("plain", i, bytes, THROUGHPUT.plain[i]!)),
    // gzip's payload is 410 times the baseline's: +40,914%.
    ...BYTES.map((bytes, i) => run("gzip", i, bytes * 410.14, THROUGHPUT.gzip[i]!)),
    ...THROUGHPUT.brotli.map((throughput, i) => run("brotli", i, BYTES[i]! * 0.62, throughput)),
  ];
}

async function uploadExperiment(page: Page, baseURL: string | undefined): Promise<string> {
  const projectSlug = await createProjectViaUi(page, `Figures ${uniqueSuffix()}`);
  const key = await createApiKeyViaUi(page, projectSlug, "figures test");
  const uploaded = await fetch(`${baseURL}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ experiment: SLUG, experimentTitle: TITLE, create: true, runs: runs() }),
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  return projectSlug;
}

const comparisonTable = (page: Page, metric: string) => page.getByRole("table", { name: `Comparison of ${metric}`, exact: true });
const rowOf = (table: Locator, variant: string) => table.getByRole("row", { name: new RegExp(`^${variant}\\b`) });
const cellOf = (row: Locator, label: string) => row.locator(`td[data-label="${label}"]`);

/** The median as the table prints it: the first figure of the median cell, with its unit. */
const tableMedian = async (table: Locator, variant: string) =>
  (await cellOf(rowOf(table, variant), "Median [95% CI]").locator(".figure").first().textContent())?.trim();

test("the table, the bar chart's labels and its tooltip print each median the same way; a factor for +40,914%; no p beside not enough data", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const projectSlug = await uploadExperiment(page, baseURL);
  await page.goto(`/p/${projectSlug}/e/${SLUG}`);

  const throughput = comparisonTable(page, "throughput");
  await expect(cellOf(rowOf(throughput, "plain"), "Median [95% CI]")).toHaveText("420 req/s [280, 520]");
  const bytes = comparisonTable(page, "payload_bytes");
  await expect(cellOf(rowOf(bytes, "plain"), "Median [95% CI]")).toHaveText("10.637 KiB [10.586, 10.693]");
  await expect(cellOf(rowOf(bytes, "gzip"), "Median [95% CI]")).toContainText("4.260 MiB");
  await expect(cellOf(rowOf(bytes, "gzip"), "Change [CI]")).toContainText(/^410× \[/);
  await expect(rowOf(bytes, "gzip").getByText("worse", { exact: true })).toBeVisible();

  // brotli's 3 runs cannot be decided: no p beside "not enough data", in either metric.
  for (const table of [bytes, throughput]) {
    const brotli = rowOf(table, "brotli");
    await expect(cellOf(brotli, "Verdict")).toContainText("not enough data");
    await expect(cellOf(brotli, "p")).toHaveText("—");
  }

  // The bar chart labels each bar with the table's own median, unit and all.
  for (const metric of ["throughput", "payload_bytes"]) {
    const bars = page.locator(`figure[data-chart="${metric}/bars"]`);
    await expect(bars.locator(".recharts-bar-rectangle")).toHaveCount(3);
    for (const variant of ["plain", "gzip", "brotli"]) {
      await expect(bars.locator(`[data-bar-label="${variant}"]`)).toHaveText((await tableMedian(comparisonTable(page, metric), variant))!);
    }
  }
  // …and its tooltip the table's median with its interval.
  const throughputBars = page.locator('figure[data-chart="throughput/bars"]');
  await throughputBars.locator(".recharts-bar-rectangle").first().hover();
  await expect(throughputBars.locator(".chart-tooltip")).toContainText("median 420 req/s [280, 520]");
});

/** Every figure of every variant's card is on screen at 390 px, under its own name. */
async function expectEveryFigureOnScreen(page: Page) {
  const expected: Record<string, string[]> = {
    plain: ["Runs", "Median [95% CI]", "Mean ± sd", "Min … max"],
    gzip: ["Runs", "Median [95% CI]", "Mean ± sd", "Min … max", "Change [CI]", "p", "Verdict"],
    brotli: ["Runs", "Median [95% CI]", "Mean ± sd", "Min … max", "Change [CI]", "p", "Verdict"],
  };
  for (const metric of ["payload_bytes", "throughput"]) {
    const table = comparisonTable(page, metric);
    await expect(table).toBeVisible();
    for (const [variant, labels] of Object.entries(expected)) {
      const row = rowOf(table, variant);
      await expect(row).toBeVisible();
      // Every cell of the row is shown (it hid Runs, Median, Mean and Min–max on a phone)…
      const cells = row.locator("td:not([data-empty])");
      const count = await cells.count();
      for (let i = 0; i < count; i++) await expect(cells.nth(i)).toBeVisible();
      // …each named on the card, with its figure, inside the screen.
      const shown = await row.locator("td[data-label]:not([data-empty])").evaluateAll((tds) =>
        tds.map((td) => {
          const box = td.getBoundingClientRect();
          return {
            label: (td as HTMLElement).dataset.label,
            named: getComputedStyle(td, "::before").content,
            figure: td.textContent?.trim() ?? "",
            inside: box.width > 0 && box.left >= 0 && box.right <= window.innerWidth,
          };
        }),
      );
      expect(
        shown.map((cell) => cell.label),
        `${metric} / ${variant}`,
      ).toEqual(labels);
      for (const cell of shown) {
        expect(cell.named, `${metric} / ${variant} / ${cell.label}`).toBe(JSON.stringify(cell.label));
        expect(cell.figure, `${metric} / ${variant} / ${cell.label}`).not.toBe("");
        expect(cell.inside, `${metric} / ${variant} / ${cell.label}`).toBe(true);
      }
    }
  }
  const bytes = comparisonTable(page, "payload_bytes");
  await expect(cellOf(rowOf(bytes, "plain"), "Runs")).toHaveText("5");
  await expect(cellOf(rowOf(bytes, "gzip"), "Change [CI]")).toContainText("410×");
  await expect(cellOf(rowOf(bytes, "brotli"), "p")).toHaveText("—");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
}

test("on a 390 px phone every figure of the comparison is visible, on the experiment page and on its share page", async ({ page, browser, baseURL }) => {
  const projectSlug = await uploadExperiment(page, baseURL);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/p/${projectSlug}/e/${SLUG}`);
  await expectEveryFigureOnScreen(page);

  // A share link, opened by someone without an account on a phone.
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${TITLE}”` });
  await expect(dialog.locator('form[aria-label="New share link"][data-ready="true"]')).toBeVisible();
  await dialog.getByRole("button", { name: "Create link" }).click();
  const url = ((await dialog.getByTestId("share-url").textContent()) ?? "").trim();
  expect(url).toContain("/s/");
  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] }, reducedMotion: "reduce", viewport: { width: 390, height: 844 } });
  const reader = await stranger.newPage();
  await reader.goto(url);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(TITLE);
  await expectEveryFigureOnScreen(reader);
  await stranger.close();
});
