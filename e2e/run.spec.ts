// "Press Run and agents do the rest", with the local agent `npm start` runs for the Examples
// project (the Go agent where Go is installed, else the reference agent; the test server is
// started by scripts/start.ts like any installation): the
// Agents page shows it online; Run on the runnable example queues interleaved jobs that it runs
// while the page follows them live and the comparison appears; a variant's workload is edited
// through the typed settings form; a running batch is cancelled; asked to stop on the Agents page
// and resumed there, the local agent comes back with its credential and runs jobs again.
import { expect, test, type Page } from "@playwright/test";
import { addMetric, openForm, uniqueSuffix } from "./helpers";

const EXAMPLES = "/p/examples";

/** The local agent enrols once the server is healthy; on a slow machine that takes a while. */
async function expectLocalAgentOnline(page: Page) {
  await page.goto(`${EXAMPLES}/agents`);
  const agent = page.getByRole("table", { name: "Agents" }).getByTestId("agent").first();
  await expect(agent).toHaveAttribute("data-status", "online", { timeout: 90_000 });
  return agent;
}

async function runFromDialog(page: Page, jobs: number) {
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Run “/ });
  const form = dialog.locator('form[aria-label="Run experiment"][data-ready="true"]');
  await expect(form).toBeVisible();
  await expect(form.getByTestId("run-agents")).toContainText("Can run now: local-");
  await form.getByRole("button", { name: `Run ${jobs} jobs` }).click();
  await expect(dialog).toBeHidden();
}

test.describe.configure({ timeout: 180_000 });

test("the Agents page shows the local agent online with what it runs", async ({ page }) => {
  const agent = await expectLocalAgentOnline(page);
  await expect(agent).toContainText(/^local-/);
  await expect(agent.getByLabel("Capabilities")).toContainText("gzip");
  await expect(agent.getByLabel("Capabilities")).toContainText("sleep");
  await expect(agent).toContainText(/seen \d+ s ago/);
  await expect(agent).toContainText("enrolled with “Local agent (npm start)”");
  await expect(agent.getByRole("button", { name: /^Revoke local-/ })).toBeVisible();
  await expect(agent.getByRole("button", { name: /^Ask local-.* to stop$/ })).toBeVisible();
  // Each column is named for what it holds.
  const headers = page.getByRole("table", { name: "Agents" }).getByRole("columnheader");
  await expect(headers).toHaveText(["Agent", "Status and last call", "Can run (capabilities, labels)", "Running now", ""]);
  await expect(headers.last()).toHaveAccessibleName("Actions");
});

test("Run on the runnable example: interleaved jobs, the local agent runs them, the comparison appears", async ({ page }) => {
  await expectLocalAgentOnline(page);
  await page.goto(`${EXAMPLES}/e/gzip-payloads-runnable`);
  await expect(page.getByRole("heading", { name: /^Comparison/ })).toHaveCount(0);

  await page.getByRole("button", { name: "Run", exact: true }).click();
  const preview = page.getByTestId("run-preview");
  await expect(preview).toContainText("12 jobs: 2 warm-ups and 10 measured runs (1 + 5 for each of 2 variants)");
  await expect(preview).toContainText("Order: warm-up Plain → warm-up Gzip → Plain → Gzip → Plain → Gzip → Plain → Gzip → …");
  await page.getByLabel("Random").check();
  await page.getByRole("textbox", { name: "Seed" }).fill("7");
  await expect(preview).toContainText("Order: warm-up");
  await page.getByRole("textbox", { name: "Seed" }).fill("-1");
  await page.getByRole("button", { name: "Run 12 jobs" }).click();
  await expect(page.getByText("seed cannot be negative")).toBeVisible();
  await page.getByLabel("Interleaved").check();
  await page.getByRole("button", { name: "Close" }).click();

  await runFromDialog(page, 12);
  const batch = page.getByTestId("batch").first();
  const jobs = batch.getByTestId("job");
  await expect(jobs).toHaveCount(12);
  // The batch's order: warm-ups, then Plain and Gzip taking turns.
  const variants = await jobs.locator("td:nth-child(2)").allInnerTexts();
  expect(variants.map((text) => text.replace(/\s+/g, " ").trim())).toEqual([
    "Plain warm-up 1",
    "Gzip warm-up 1",
    ...[1, 2, 3, 4, 5].flatMap((n) => [`Plain run ${n}`, `Gzip run ${n}`]),
  ]);
  // Followed live, without a reload, until every job is done.
  await expect(batch.getByTestId("batch-tallies")).toHaveText("12 done", { timeout: 120_000 });
  await expect(batch).toHaveAttribute("data-active", "false");
  await expect(jobs.filter({ hasText: "done" })).toHaveCount(12);
  await expect(jobs.nth(2).getByRole("link", { name: "run" })).toBeVisible();

  // The comparison fills in from the runs that landed.
  const comparison = page.getByRole("table", { name: "Comparison of compress_time" });
  await expect(comparison).toBeVisible();
  await expect(comparison.getByRole("row", { name: /Plain/ })).toContainText("5");
  await expect(comparison.getByRole("row", { name: /Gzip/ })).toContainText("5");
  await expect(page.getByRole("table", { name: "Comparison of payload_bytes" })).toContainText("Gzip");
  await expect(page.getByRole("heading", { name: "Runs (10 runs)" })).toBeVisible();
});

test("Run on the runnable http example: the local Go agent loads its own target, the comparison shows keep-alive ahead", async ({ page }) => {
  const agent = await expectLocalAgentOnline(page);
  // Only the Go agent has the http workload; without Go, npm start runs the reference agent.
  test.skip(!(await agent.getByLabel("Capabilities").innerText()).includes("http"), "the local agent has no http workload (Go is not installed)");
  await page.goto(`${EXAMPLES}/e/http-keepalive-runnable`);
  await runFromDialog(page, 12);
  const batch = page.getByTestId("batch").first();
  await expect(batch.getByTestId("batch-tallies")).toHaveText("12 done", { timeout: 150_000 });
  const throughput = page.getByRole("table", { name: "Comparison of throughput", exact: true });
  await expect(throughput.getByRole("row", { name: /Keep-alive/ })).toContainText("5");
  await expect(throughput.getByRole("row", { name: /New connection/ })).toContainText("5");
  // The latency metric carries every request's HdrHistogram: its merged percentiles show.
  const latency = page.getByRole("table", { name: "Comparison of latency", exact: true });
  await expect(latency).toContainText("p50 / p90 / p99");
  await expect(latency.getByRole("row", { name: /New connection/ })).toContainText(/\d(?: \S+)? \/ [\d.]+(?: \S+)? \/ [\d.]+/);
});

test("a variant's workload through the typed form; jobs run live; a running batch is cancelled", async ({ page }) => {
  await expectLocalAgentOnline(page);
  const title = `Sleep ${uniqueSuffix()}`;
  await openForm(page, `${EXAMPLES}/new`);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Warm-up runs").fill("0");
  await page.getByLabel("Measured runs").fill("2");
  await addMetric(page, 0, { key: "slept_ms", unit: "ms", direction: "lower is better" });

  // The kinds come from what the agent advertises; the settings form from its JSON Schema.
  const kind = page.locator('[id="variants.0.config.workload"]');
  await expect(kind.locator("option", { hasText: "sleep" })).toHaveCount(1);
  await kind.selectOption("sleep");
  const ms = page.locator('[id="variants.0.config.settings.ms"]');
  await expect(ms).toHaveAttribute("placeholder", "1000");
  await expect(page.getByText("How long to sleep, in milliseconds · 0 to 86,400,000 ms · default 1000 ms")).toBeVisible();
  await ms.fill("1.5");
  await expect(page.locator('[id="variants.0.config.settings.ms-error"]')).toHaveText("enter a whole number");
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.getByText("Some fields need attention")).toBeVisible();
  await ms.fill("-5");
  await expect(page.locator('[id="variants.0.config.settings.ms-error"]')).toHaveText("must be at least 0");
  await ms.fill("2500");
  await expect(page.locator('[id="variants.0.config.settings.ms-error"]')).toHaveCount(0);

  // The raw JSON editor is the fallback, and shows what the form wrote.
  const second = page.getByTestId("workload-editor").nth(1);
  await page.locator('[id="variants.1.config.workload"]').selectOption("sleep");
  await second.getByRole("button", { name: "Raw JSON" }).click();
  const json = page.locator('[id="variants.1.config.settings"]');
  await json.fill('{"ms": 2500, "colour": "red"}');
  await expect(second).toContainText('unknown setting "colour"; valid settings are ms');
  await json.fill('{"ms": 2500');
  await expect(second).toContainText("not valid JSON");
  await json.fill('{"ms": 2500}');
  await second.getByRole("button", { name: "Form" }).click();
  await expect(page.locator('[id="variants.1.config.settings.ms"]')).toHaveValue("2500");

  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const workloads = page.getByRole("table", { name: "Variants" }).getByTestId("variant-workload");
  await expect(workloads.nth(0)).toHaveText('sleep {"ms":2500}');
  await expect(workloads.nth(1)).toHaveText('sleep {"ms":2500}');
  const experimentUrl = page.url();
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible();
  await expect(page.locator('[id="variants.0.config.settings.ms"]')).toHaveValue("2500");
  await page.goto(experimentUrl);

  // One agent runs the jobs one after another: while the first runs, the others wait.
  await runFromDialog(page, 4);
  const batch = page.getByTestId("batch").first();
  const jobs = batch.getByTestId("job");
  await expect(jobs.first()).toHaveAttribute("data-status", "leased");
  await expect(jobs.first()).toContainText("running on local-");
  await expect(jobs.last()).toHaveAttribute("data-status", "queued");
  await expect(batch.getByTestId("batch-tallies")).toHaveText("4 done", { timeout: 60_000 });
  await expect(page.getByRole("table", { name: "Comparison of slept_ms" })).toBeVisible();

  // A second batch, cancelled while its first job runs: the queued ones are dropped at once.
  await runFromDialog(page, 4);
  const cancelled = page.getByTestId("batch").first();
  await expect(cancelled.getByTestId("job").first()).toHaveAttribute("data-status", "leased");
  page.once("dialog", (dialog) => void dialog.accept());
  await cancelled.getByRole("button", { name: "Cancel batch" }).click();
  await expect(cancelled.getByTestId("job").last()).toHaveAttribute("data-status", "cancelled");
  await expect(cancelled).toHaveAttribute("data-active", "false", { timeout: 60_000 });
  // The running job heard the cancellation, or finished first.
  await expect(cancelled.getByTestId("batch-tallies")).toHaveText(/^(1 done )?[34] cancelled$/);
  await expect(cancelled.getByRole("button", { name: "Cancel batch" })).toHaveCount(0);
});

// Last: it stops the local agent for a while and leaves a batch on the runnable example.
test("the local agent asked to stop, then resumed on the Agents page: it starts again with its credential and runs jobs", async ({ page }) => {
  test.setTimeout(240_000);
  const agent = await expectLocalAgentOnline(page);
  const name = (await agent.locator(".agent-name").innerText()).trim();
  const credential = (await agent.locator("code").innerText()).trim();
  page.once("dialog", (dialog) => void dialog.accept());
  await agent.getByRole("button", { name: `Ask ${name} to stop` }).click();
  await expect(agent).toHaveAttribute("data-status", "stopping");
  // It exits at its next heartbeat; silent for three heartbeat intervals, it shows as stopped.
  await expect(agent).toHaveAttribute("data-status", "stopped", { timeout: 90_000 });
  await expect(agent.getByRole("button", { name: `Ask ${name} to stop` })).toHaveCount(0);

  page.once("dialog", (dialog) => void dialog.accept());
  await agent.getByRole("button", { name: `Resume ${name}` }).click();
  // npm start's supervisor hears of it and starts the agent again: the same agent, the same credential.
  await expect(agent).toHaveAttribute("data-status", "online", { timeout: 60_000 });
  await expect(page.getByRole("table", { name: "Agents" }).getByTestId("agent")).toHaveCount(1);
  await expect(agent.locator("code")).toHaveText(credential);
  await expect(agent.getByRole("button", { name: `Resume ${name}` })).toHaveCount(0);

  await page.goto(`${EXAMPLES}/e/gzip-payloads-runnable`);
  await runFromDialog(page, 12);
  await expect(page.getByTestId("batch").first().getByTestId("batch-tallies")).toHaveText("12 done", { timeout: 150_000 });
});
