// The run detail shows each run's value — what it contributes to comparisons — next to its
// summary, marked when its producer sent it; a summary the run-value migration flagged (written
// here with SQL, as a migrated database holds it) shows its note and is not shown as sound.
import { expect, test } from "@playwright/test";
import { sql } from "./database";
import { createApiKeyViaUi, createProjectViaUi, uniqueSuffix } from "./helpers";

test("the results table shows each run's value beside its summary, and flags a summary that contradicts itself", async ({ page, baseURL }) => {
  const projectSlug = await createProjectViaUi(page, `Run values ${uniqueSuffix()}`);
  const key = await createApiKeyViaUi(page, projectSlug, "run values");
  // Per-second request counts as the series; the whole run's rate as the value.
  const runs = [
    {
      variant: "keep-alive",
      metrics: [
        { key: "throughput", unit: "req/s", direction: "higher_is_better", value: 1450.75, timeSeries: { intervalMs: 1000, values: [1432, 1461, 1458] } },
      ],
    },
    {
      variant: "keep-alive",
      metrics: [
        { key: "throughput", unit: "req/s", direction: "higher_is_better", value: 1390.25, timeSeries: { intervalMs: 1000, values: [1380, 1399, 1392] } },
      ],
    },
    {
      variant: "new-connection",
      metrics: [{ key: "throughput", unit: "req/s", direction: "higher_is_better", summary: { n: 3, mean: 612, sd: 4, min: 608, max: 616 } }],
    },
  ];
  const uploaded = await fetch(`${baseURL}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ experiment: "run-values", create: true, runs }),
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  const secondRun = ((await uploaded.json()) as { runs: { id: string }[] }).runs[1]?.id;
  const note =
    "Stored before Versus checked that a summary describes its values: no 4 values from min to max have this mean. Comparisons use the run's value, the figure they used before.";
  const flagged = await sql(`UPDATE "RunMetricResult" SET n = 4, mean = 450.3, sd = 607.5, min = 394, max = 1656, "summaryNote" = $2 WHERE "runId" = $1`, [
    secondRun,
    note,
  ]);
  expect(flagged.rowCount).toBe(1);

  await page.goto(`/p/${projectSlug}/e/run-values`);
  const table = page.getByRole("table", { name: "Runs of throughput" });
  await expect(table.getByRole("columnheader", { name: "Run value" })).toBeVisible();
  const rows = table.getByRole("row");
  // The value sent, marked; the summary describes the three seconds (n = 3, mean of the points).
  await expect(rows.nth(1)).toContainText("1,451 sent");
  await expect(rows.nth(1)).toContainText("1,450");
  // Without a value, the run's summary's mean is its value.
  await expect(rows.nth(3)).toContainText("612");
  await expect(rows.nth(3)).not.toContainText("sent");
  const contradicting = rows.filter({ hasText: "summary contradicts itself" });
  await expect(contradicting).toHaveCount(1);
  await expect(contradicting).toContainText("no 4 values from min to max have this mean");
  await expect(contradicting.locator("s")).toHaveCount(8);
  await expect(page.locator("#comparison-heading")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("run-values.png"), fullPage: true });
});
