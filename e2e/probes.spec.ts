// Probes from the form to the page: an experiment whose variants probe one server and two servers
// (app-1, app-2) built with the form alone (typed probe fields, presets as checkboxes, the probes'
// metrics added with one click, a bad URL refused on its field), then runs with those probe
// metrics uploaded through POST /api/v1/results: the comparison shows the client's metrics, then
// a "Server" group with both probes' CPU, each CPU metric has its over-time chart, both probes'
// CPU share one chart across variants, and a run's warning shows on the runs list. (The walk with real agents sampling a real target comes with them.)
import { expect, test } from "@playwright/test";
import { createApiKeyViaUi, createProjectViaUi, openForm, shot, uniqueSuffix } from "./helpers";

const WARNING = 'probe "app-2" did not answer for 1 of 20 intervals (7 s – 8 s): connection refused';

/** Four runs of each variant: latency samples, and each probe's CPU as 20 one-second intervals. */
function runsToUpload() {
  return [0, 1, 2, 3].flatMap((repetition) => {
    const cpu = (base: number) => Array.from({ length: 20 }, (_, second) => base + ((second * 7 + repetition * 3) % 11));
    const series = (key: string, base: number) => {
      const values = cpu(base);
      return { key, samples: values, timeSeries: { intervalMs: 1000, values } };
    };
    return [
      { variant: "One server", repetition, metrics: [{ key: "latency", samples: [12 + repetition, 13, 14, 12.5] }, series("app-1.cpu_percent", 80)] },
      {
        variant: "Behind nginx",
        repetition,
        ...(repetition === 2 ? { warnings: [WARNING] } : {}),
        metrics: [{ key: "latency", samples: [9 + repetition, 10, 9.5, 10.5] }, series("app-1.cpu_percent", 40), series("app-2.cpu_percent", 42)],
      },
    ];
  });
}

test("probes built in the form show as a Server group with both probes' CPU and their time series; a run's warning shows", async ({ page, baseURL }) => {
  const projectSlug = await createProjectViaUi(page, `Probes ${uniqueSuffix()}`);
  const key = await createApiKeyViaUi(page, projectSlug, "probes test");

  await openForm(page, `/p/${projectSlug}/new`);
  const title = `Nginx in front ${uniqueSuffix()}`;
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Measured runs").fill("4");
  await page.locator('[id="variants.0.name"]').fill("One server");
  await page.locator('[id="variants.1.name"]').fill("Behind nginx");
  const editors = page.getByTestId("workload-editor");
  for (const index of [0, 1]) {
    // A workload no agent of this new project offers: typed by name.
    await page.locator(`[id="variants.${index}.config.workload"]`).selectOption({ label: "Other (type its name)…" });
    await page.locator(`[id="variants.${index}.config.workloadName"]`).fill("http");
  }

  // Variant 1 probes one server: a Prometheus endpoint with the process and jvm presets.
  await editors.nth(0).getByRole("button", { name: "Add probe" }).click();
  const first = "variants.0.config.probes.0";
  await expect(page.locator(`[id="${first}.name"]`)).toHaveValue("app-1");
  await page.locator(`[id="${first}.url"]`).fill("ftp://127.0.0.1:8081/metrics");
  await editors.nth(0).getByRole("checkbox", { name: /^jvm/ }).check();
  await expect(editors.nth(0).getByText("heap used and its peak, GC count and time")).toBeVisible();
  // A custom series beside the presets, as typed fields; labels as Prometheus writes them.
  await editors.nth(0).getByRole("button", { name: "Add a custom series to app-1" }).click();
  const custom = `${first}.series.0`;
  await page.locator(`[id="${custom}.key"]`).fill("queue_depth");
  await page.locator(`[id="${custom}.metric"]`).fill("executor_queued_tasks");
  await page.locator(`[id="${custom}.labels"]`).fill("name=io");
  await expect(page.locator(`[id="${custom}.labels-error"]`)).toContainText('write them as Prometheus does, name="value" separated by commas');
  await page.locator(`[id="${custom}.labels"]`).fill('name="io"');
  await expect(page.locator(`[id="${custom}.labels-error"]`)).toHaveCount(0);
  await page.locator(`[id="${custom}.aggregation"]`).selectOption("max");
  await page.locator(`[id="${custom}.unit"]`).fill("count");

  // Variant 2 probes two servers behind nginx.
  await editors.nth(1).getByRole("button", { name: "Add probe" }).click();
  await editors.nth(1).getByRole("button", { name: "Add probe" }).click();
  await expect(page.locator('[id="variants.1.config.probes.1.name"]')).toHaveValue("app-2");
  for (const [at, port] of [
    [0, 8081],
    [1, 8082],
  ] as const)
    await page.locator(`[id="variants.1.config.probes.${at}.url"]`).fill(`http://127.0.0.1:${port}/metrics`);
  // No raw JSON anywhere in the probes.
  await expect(page.getByTestId("probes-editor").locator("textarea")).toHaveCount(0);

  // The probes' metrics, one click each, keys prefixed with the probe's name.
  const secondProbes = editors.nth(1).getByTestId("probe-row");
  await expect(secondProbes.nth(1).getByTestId("probe-metric").filter({ hasText: "app-2.cpu_percent_max" })).toContainText(
    "% · lower is better · per run: max",
  );
  await secondProbes.nth(0).getByRole("button", { name: "Add metric app-1.cpu_percent", exact: true }).click();
  await secondProbes.nth(1).getByRole("button", { name: "Add metric app-2.cpu_percent", exact: true }).click();
  await expect(page.locator('[id="metrics.0.key"]')).toHaveValue("app-1.cpu_percent");
  await expect(page.locator('[id="metrics.0.unit"]')).toHaveValue("%");
  await expect(page.locator('[id="metrics.1.key"]')).toHaveValue("app-2.cpu_percent");
  // A client-side metric by hand.
  await page.getByRole("button", { name: "Add metric", exact: true }).click();
  await page.locator('[id="metrics.2.key"]').fill("latency");
  await page.locator('[id="metrics.2.unit"]').fill("ms");
  await page.locator('[id="metrics.2.direction"]').selectOption({ label: "lower is better" });

  // The ftp URL is refused on its field, saying what is valid.
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.locator(`[id="${first}.url-error"]`)).toContainText("url must be an http:// or https:// URL");
  await page.locator(`[id="${first}.url"]`).fill("http://127.0.0.1:8081/actuator/prometheus");
  await expect(page.locator(`[id="${first}.url-error"]`)).toHaveCount(0);
  await expect(editors.nth(0).getByTestId("probe-metric").filter({ hasText: "app-1.queue_depth" })).toContainText('max of executor_queued_tasks{name="io"}');
  await shot(page, "probes-form");
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const experimentSlug = new URL(page.url()).pathname.split("/")[4] ?? "";

  const uploaded = await fetch(`${baseURL}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ experiment: experimentSlug, runs: runsToUpload() }),
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);

  await page.reload();
  const comparison = page.getByRole("region", { name: /^Comparison/ });
  const headings = comparison.getByRole("heading", { level: 3 });
  await expect(headings).toHaveText([/^Client/, /^Server/]);
  await expect(comparison.getByTestId("server-group")).toContainText("from the variants' probes (app-1, app-2)");
  // Client metrics first, then the server's, though the form listed the probes' first.
  const tables = comparison.getByRole("table");
  await expect(tables).toHaveCount(3);
  await expect(tables.nth(0)).toHaveAccessibleName("Comparison of latency");
  await expect(tables.nth(1)).toHaveAccessibleName("Comparison of app-1.cpu_percent");
  await expect(tables.nth(2)).toHaveAccessibleName("Comparison of app-2.cpu_percent");
  await expect(tables.nth(1).getByRole("row", { name: /Behind nginx/ })).toContainText("better");

  // The charts in the same order: the client's, then the server's.
  await expect(page.locator("section.metric-charts[data-metric]")).toHaveCount(3);
  expect(
    await page.locator("section.metric-charts[data-metric]").evaluateAll((sections) => sections.map((section) => section.getAttribute("data-metric"))),
  ).toEqual(["latency", "app-1.cpu_percent", "app-2.cpu_percent"]);
  // Each probe's CPU over time, drawn from the runs' time series.
  // Each probe's CPU over time: one line per run, both variants on app-1, the nginx variant's on app-2.
  for (const [metric, lines, legend] of [
    ["app-1.cpu_percent", 8, ["One server", "Behind nginx"]],
    ["app-2.cpu_percent", 4, ["Behind nginx"]],
  ] as const) {
    await page
      .getByRole("group", { name: `Chart of ${metric}` })
      .getByRole("button", { name: "Over time" })
      .click();
    const chart = page.locator(`figure[data-chart="${metric}/time"]`);
    await expect(chart.locator("svg.recharts-surface")).toHaveCount(1);
    await expect(chart.locator(".recharts-line-curve")).toHaveCount(lines);
    await expect(chart.locator("[data-legend-item]")).toHaveText([...legend]);
  }

  // Both probes' CPU on one axis: a line per variant and probe, colour the variant, dash the probe.
  const overlay = page.locator('section[data-targets="cpu_percent"]');
  await expect(overlay.getByRole("heading", { level: 3 })).toHaveText("cpu_percent across app-1, app-2 · %");
  const overlayChart = overlay.locator('figure[data-chart="targets/cpu_percent"]');
  await expect(overlayChart.locator(".recharts-line-curve")).toHaveCount(3);
  await expect(overlayChart.locator("[data-legend-item]")).toHaveText(["One server · app-1", "Behind nginx · app-1", "Behind nginx · app-2"]);
  await expect(overlayChart.locator('.recharts-line-curve[stroke-dasharray="7 4"]')).toHaveCount(1);
  await overlay.scrollIntoViewIfNeeded();
  await shot(page, "probes-targets-overlay");

  // The run's warning, under the run it belongs to.
  const warnings = page.getByTestId("run-warnings");
  await expect(warnings).toHaveCount(1);
  await expect(warnings).toContainText(WARNING);
  await expect(page.getByRole("table", { name: "Runs" }).getByText("1 warning", { exact: true })).toBeVisible();
  await shot(page, "probes-experiment");
});
