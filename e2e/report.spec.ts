// Exports and the cross-experiment comparison in a real browser: the Kafka serializer runs
// (docs/examples.md case 5, 5 per variant) are uploaded through the REST API with a key made in the UI;
// the Markdown report zip downloaded from the experiment page holds the comparison's figures and
// the chart images it links; runs.csv holds the uploaded numbers; the compare page gives a verdict.
import fs from "node:fs";
import { parse } from "csv-parse/sync";
import JSZip from "jszip";
import { expect, test } from "@playwright/test";
import { KAFKA_VARIANTS, SEND_TIME_MS } from "../test/fixtures/kafka-published-figures";
import { createApiKeyViaUi, createProjectViaUi, uniqueSuffix } from "./helpers";

/** The cells of the report table row whose first cell is `name`, in the section of `metricKey`. */
function reportRow(markdown: string, metricKey: string, name: string): string[] {
  const section = markdown.slice(markdown.indexOf(`(\`${metricKey}\`)`));
  const line = section.split("\n").find((l) => l.startsWith(`| ${name} |`) || l.startsWith(`| ${name} (baseline) |`));
  if (!line) throw new Error(`no row ${name} under ${metricKey} in\n${markdown}`);
  return line.slice(2, -2).split(" | ");
}

test("download the Markdown report and the CSV of runs; compare runs across variants", async ({ page, baseURL }) => {
  const suffix = uniqueSuffix();
  const projectSlug = await createProjectViaUi(page, `Reports ${suffix}`);
  const key = await createApiKeyViaUi(page, projectSlug, "report test");
  expect(key).toMatch(/^vs_/);

  const runs = [0, 1, 2, 3, 4].flatMap((i) =>
    KAFKA_VARIANTS.map((variant) => ({
      variant,
      repetition: i,
      environment: { cpu: "Apple M1 Pro", cores: 10 },
      metrics: [
        {
          key: "send_time_ms",
          unit: "ms",
          direction: "lower_is_better",
          label: "Average send time",
          summary: { n: 1_000_000, mean: SEND_TIME_MS[variant][i] },
        },
      ],
    })),
  );
  const uploaded = await fetch(`${baseURL}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ experiment: "kafka-serializers", experimentTitle: "Kafka producer serializers", create: true, runs }),
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);

  // The Markdown report: report.md plus every chart on the page as charts/*.png, zipped.
  await page.goto(`/p/${projectSlug}/e/kafka-serializers`);
  await expect(page.getByRole("heading", { level: 1, name: "Kafka producer serializers" })).toBeVisible();
  const exportGroup = page.getByRole("group", { name: "Export" });
  const reportButton = exportGroup.getByRole("button", { name: "Markdown report" });
  await expect(reportButton).toBeEnabled();
  // Wait until every chart that has something to draw has drawn its <svg>.
  const figures = page.locator("figure[data-chart]");
  const drawn = figures.filter({ has: page.locator("svg") });
  await expect.poll(async () => (await figures.filter({ hasNot: page.locator(".chart-state") }).count()) - (await drawn.count())).toBe(0);
  const chartCount = await drawn.count();
  const [reportDownload] = await Promise.all([page.waitForEvent("download"), reportButton.click()]);
  expect(reportDownload.suggestedFilename()).toBe("kafka-serializers-report.zip");
  const zip = await JSZip.loadAsync(fs.readFileSync(await reportDownload.path()));
  const markdown = await zip.file("report.md")!.async("string");
  expect(markdown).toMatch(/^# Kafka producer serializers\n/);
  expect(markdown).toContain("| Variant | Runs | Median [95% CI] | Mean ± sd | Min … max | Change vs SPRING_JSON [CI] | p | Verdict |");
  const kotlinx = reportRow(markdown, "send_time_ms", "KOTLINX_JSON");
  expect(kotlinx[5]).toMatch(/^−4\.37% \(better\) \[/);
  expect(kotlinx[6]).toBe("0.032");
  expect(kotlinx[7]).toBe("better");
  const jackson = reportRow(markdown, "send_time_ms", "JACKSON_OBJECT_MAPPER");
  expect(jackson[5]).toMatch(/^−3\.31% \[/);
  expect(jackson[7]).toBe("no significant change");
  expect(reportRow(markdown, "send_time_ms", "SPRING_JSON").slice(1, 5)).toEqual(["5", "3.019 ms [2.947, 3.436]", "3.08 ± 0.20 ms", "2.947 … 3.436 ms"]);
  expect(markdown).toContain("| CPU | Apple M1 Pro |");
  // Every chart the report links is in the zip as a PNG, and every PNG in the zip is linked.
  const linked = [...markdown.matchAll(/\]\(charts\/([^)]+)\)/g)].map((m) => m[1]).sort();
  const inZip = Object.keys(zip.files)
    .filter((name) => name.startsWith("charts/") && !zip.files[name]!.dir)
    .map((name) => name.slice("charts/".length))
    .sort();
  expect(inZip).toEqual(linked);
  expect(inZip).toHaveLength(chartCount);
  for (const name of inZip) {
    const png = await zip.file(`charts/${name}`)!.async("uint8array");
    expect([...png.slice(0, 8)], name).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  }

  // The report's text alone, and the runs as CSV.
  const [textDownload] = await Promise.all([page.waitForEvent("download"), exportGroup.getByRole("link", { name: "report.md" }).click()]);
  expect(textDownload.suggestedFilename()).toBe("kafka-serializers-report.md");
  expect(reportRow(fs.readFileSync(await textDownload.path(), "utf8"), "send_time_ms", "KOTLINX_JSON")[7]).toBe("better");
  const [csvDownload] = await Promise.all([page.waitForEvent("download"), exportGroup.getByRole("link", { name: "runs.csv" }).click()]);
  expect(csvDownload.suggestedFilename()).toBe("kafka-serializers-runs.csv");
  const rows: Record<string, string>[] = parse(fs.readFileSync(await csvDownload.path(), "utf8"), { columns: true });
  expect(rows).toHaveLength(15);
  const first = rows.find((r) => r.variant === "KOTLINX_JSON" && r.repetition === "0");
  expect(first).toMatchObject({ metric: "send_time_ms", unit: "ms", n: "1000000", mean: "2.95", status: "succeeded", source: "upload" });

  // Compare runs: SPRING_JSON's runs before, KOTLINX_JSON's after.
  await page.goto(`/p/${projectSlug}`);
  await page.getByRole("link", { name: "Compare runs" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Compare runs" })).toBeVisible();
  const form = page.getByRole("form", { name: "Pick runs to compare" });
  await expect(form).toHaveAttribute("data-ready", "true");
  const before = form.getByRole("group", { name: "Before (baseline)" });
  const after = form.getByRole("group", { name: "After" });
  await expect(before.getByLabel("Experiment")).toHaveValue("kafka-serializers");
  await before.getByLabel("Variant").selectOption("SPRING_JSON");
  await after.getByLabel("Variant").selectOption("KOTLINX_JSON");
  await expect(after.getByLabel("Commit", { exact: true })).toBeDisabled();
  await form.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(/\?before=kafka-serializers&beforeVariant=SPRING_JSON&after=kafka-serializers&afterVariant=KOTLINX_JSON$/);
  const result = page.getByRole("region", { name: /Result/ });
  await expect(result).toContainText("SPRING_JSON");
  const table = result.getByRole("table", { name: "Comparison of send_time_ms" });
  await expect(table.getByRole("row", { name: /^after/ })).toContainText("better");
  await expect(table.getByRole("row", { name: /^after/ })).toContainText("−4.37%");

  // The link alone shows the same result; an unknown experiment in it is named, not a crash.
  await page.goto(page.url());
  await expect(page.getByRole("table", { name: "Comparison of send_time_ms" }).getByRole("row", { name: /^after/ })).toContainText("better");
  await page.goto(`/p/${projectSlug}/compare?before=nope&after=kafka-serializers`);
  await expect(page.getByRole("alert").filter({ hasText: "No experiment" })).toHaveText('No experiment "nope" in this project (before)');
});
