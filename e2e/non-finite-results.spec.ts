// An experiment holding a result whose stored figures are not finite (an overflowed sum stored
// before ingest refused them; written here with SQL, as an old database holds it) still opens:
// the comparison and charts show, and the run's row in the results table says it was left out.
import { expect, test } from "@playwright/test";
import { sql } from "./database";
import { createApiKeyViaUi, createProjectViaUi, uniqueSuffix } from "./helpers";

test("an experiment with a poisoned stored result still shows its comparison, and flags that result", async ({ page, baseURL }) => {
  const projectSlug = await createProjectViaUi(page, `Poisoned ${uniqueSuffix()}`);
  const key = await createApiKeyViaUi(page, projectSlug, "poison test");
  const runs = ["plain", "gzip"].flatMap((variant, v) =>
    [0, 1, 2].map((r) => ({
      variant,
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", summary: { n: 100, mean: 10 + v + r / 10, sd: 1 } }],
    })),
  );
  const uploaded = await fetch(`${baseURL}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ experiment: "poisoned", create: true, runs }),
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  const firstRunId = ((await uploaded.json()) as { runs: { id: string }[] }).runs[0]?.id;
  const updated = await sql(`UPDATE "RunMetricResult" SET mean = '-Infinity', sd = '-Infinity', sum = '-Infinity' WHERE "runId" = $1`, [firstRunId]);
  expect(updated.rowCount).toBe(1);

  await page.goto(`/p/${projectSlug}/e/poisoned`);
  await expect(page.getByRole("heading", { level: 1, name: "poisoned" })).toBeVisible();
  await expect(page.locator("#comparison-heading")).toBeVisible();
  const results = page.getByRole("table", { name: "Runs of latency" });
  const flagged = results.getByRole("row").filter({ hasText: "left out" });
  await expect(flagged).toHaveCount(1);
  await expect(flagged).toContainText("mean, sd, sum are not finite");
  await expect(flagged).toContainText("plain");
  await page.screenshot({ path: test.info().outputPath("poisoned-experiment.png"), fullPage: true });
});
