// Verdicts that know their noise, in a real browser with the local agent `npm start` runs for the
// Examples project: "Measure noise" on the experiment page starts an A/A batch that the page
// follows like any other, then shows the stored floor per metric and agent; every agent-run
// verdict shows the smallest change its runs could see; the Run dialog suggests the runs a chosen
// change needs (and says to measure noise first before there is a floor). Then confirmation before
// alarm: a rule that confirms, a real slowdown started from CI (REST) on the agent, the alert with
// both batches, and a member marking it real or noise, which the rule's record counts.
import { expect, test, type Page } from "@playwright/test";
import { sql } from "./database";
import { addMetric, openForm, shot, uniqueSuffix } from "./helpers";

const EXAMPLES = "/p/examples";

test.describe.configure({ timeout: 240_000 });

/** An experiment of the Examples project whose two variants sleep `ms` (the local agent's sleep workload); returns its URL. */
async function sleepExperiment(page: Page, title: string, ms: number, measuredRuns: number) {
  await page.goto(`${EXAMPLES}/agents`);
  await expect(page.getByRole("table", { name: "Agents" }).getByTestId("agent").first()).toHaveAttribute("data-status", "online", { timeout: 90_000 });
  await openForm(page, `${EXAMPLES}/new`);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Warm-up runs").fill("0");
  await page.getByLabel("Measured runs").fill(String(measuredRuns));
  await addMetric(page, 0, { key: "slept_ms", unit: "ms", direction: "lower is better" });
  for (const index of [0, 1]) {
    await page.locator(`[id="variants.${index}.config.workload"]`).selectOption("sleep");
    await page.locator(`[id="variants.${index}.config.settings.ms"]`).fill(String(ms));
  }
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  return page.url();
}

test("Measure noise, the floor per metric and agent, the MDE beside the verdict, and the Run dialog's suggested runs", async ({ page }) => {
  await sleepExperiment(page, `Noise ${uniqueSuffix()}`, 40, 4);
  const panel = page.getByTestId("noise-floor-panel");
  await expect(panel).toContainText("Not measured yet");

  // Before any floor the Run dialog says to measure noise first.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const runDialog = page.getByRole("dialog", { name: /^Run “/ });
  await expect(runDialog.getByTestId("runs-for-mde")).toContainText("measure noise first");
  await runDialog.getByRole("button", { name: "Close" }).click();

  await panel.getByRole("button", { name: "Measure noise" }).click();
  const dialog = page.getByRole("dialog", { name: "Measure noise" });
  const form = dialog.locator('form[aria-label="Measure noise"][data-ready="true"]');
  await expect(form).toBeVisible();
  await form.getByLabel("Runs a side").fill("0");
  await form.getByRole("button", { name: /^Measure noise/ }).click();
  await expect(form.getByText("runs must be at least 1")).toBeVisible();
  await form.getByLabel("Runs a side").fill("4");
  await expect(form.getByLabel("Agent").locator("option", { hasText: /^local-/ })).toHaveCount(1);
  await form.getByRole("button", { name: "Measure noise: 8 jobs" }).click();
  await expect(dialog).toBeHidden();

  // Followed like any batch, and marked as what it is.
  const batch = page.getByTestId("batch").first();
  await expect(batch).toContainText("A/A: measuring noise");
  await expect(batch.getByTestId("batch-tallies")).toHaveText("8 done", { timeout: 120_000 });
  const row = panel.getByTestId("noise-floor-row");
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toContainText(/slept_ms\s*local-\S+\s*8\s*[\d.]+ ms/);
  await expect(row).toContainText(/±[\d.]+% with 4/);
  await expect(panel.getByRole("button", { name: "Measure again" })).toBeVisible();

  // An A/B batch: its verdict shows the floor of the agent that ran it, at its own run counts (the A/A runs are not compared).
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await runDialog.locator('form[aria-label="Run experiment"][data-ready="true"]').getByRole("button", { name: "Run 8 jobs" }).click();
  await expect(runDialog).toBeHidden();
  await expect(page.getByTestId("batch").first().getByTestId("batch-tallies")).toHaveText("8 done", { timeout: 120_000 });
  const comparison = page.getByRole("table", { name: "Comparison of slept_ms" });
  const floor = comparison.getByTestId("noise-floor");
  await expect(floor).toHaveText(/^changes under ±[\d.]+% cannot be seen with 4 runs here \(noise floor of local-\S+, measured \d{4}-\d\d-\d\d\)$/, {
    timeout: 30_000,
  });

  // The A/A runs are listed, marked as such, and left out of the comparison, which says so.
  await expect(page.getByText("8 runs of Baseline from A/A batches (Measure noise) are left out: they measure the noise floor")).toBeVisible();
  await expect(page.getByRole("table", { name: "Runs", exact: true }).getByText("A/A: measuring noise, not compared")).toHaveCount(8);

  // The Run dialog now suggests the runs a chosen change needs.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const suggestion = runDialog.getByTestId("runs-for-mde");
  await suggestion.getByLabel("Detect changes of ±").fill("5");
  await expect(suggestion).toContainText(/→ about \d+ measured runs per variant \(slept_ms on local-\S+; the experiment/);
  await suggestion.getByLabel("Detect changes of ±").fill("0");
  await expect(suggestion).toContainText("the change must be above 0%");
  await suggestion.getByLabel("Detect changes of ±").fill("5");
  await shot(page, "noise-run-dialog");
  await runDialog.getByRole("button", { name: "Close" }).click();
  await shot(page, "noise-experiment-page");
});

test("a rule that confirms first: a real slowdown from CI alerts with both batches, and a member marks it real or noise", async ({ page, baseURL }) => {
  const title = `Confirm ${uniqueSuffix()}`;
  const url = await sleepExperiment(page, title, 200, 3);
  const experimentSlug = new URL(url).pathname.split("/").at(-1) as string;

  // A run key, to start batches as CI does.
  await openForm(page, `${EXAMPLES}/keys`);
  await page.getByLabel("Name").fill(`confirm ${uniqueSuffix()}`);
  await page.getByLabel("May").selectOption({ label: "Also start and cancel runs" });
  await page.getByRole("button", { name: "Create key" }).click();
  const key = ((await page.getByTestId("api-key-secret").textContent()) ?? "").trim();

  // The rule, confirming before it alerts.
  await page.goto(url);
  const form = page.locator('form[aria-label="New alert rule"][data-ready="true"]');
  await expect(form).toBeVisible();
  await form.getByLabel("Variant").selectOption("Baseline");
  await form.getByLabel("Kind").selectOption({ label: "% bound" });
  await form.getByLabel("Bound (%)").fill("5");
  await form.getByLabel("Earlier commits").fill("2");
  await form.getByLabel("Confirm before alerting").check();
  await expect(form.getByLabel("Confirmation runs")).toHaveValue("6");
  await form.getByLabel("Confirmation runs").fill("4");
  await form.getByRole("button", { name: "Add rule" }).click();
  const rule = page.getByTestId("alert-rule");
  await expect(rule).toContainText("confirmed by 4 more runs a variant before alerting");
  await expect(rule.getByTestId("rule-record")).toHaveText("none marked real or noise yet");

  const runCommit = async (index: number) => {
    const started = await fetch(`${baseURL}/api/v1/experiments/${experimentSlug}/batches`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({
        variants: ["Baseline"],
        commit: `${index.toString(16).padStart(4, "0")}${"beef".repeat(9)}`,
        branch: "main",
        commitTime: new Date(Date.UTC(2026, 0, 1, index)).toISOString(),
      }),
    });
    expect(started.status, await started.clone().text()).toBe(201);
    const { id } = (await started.json()) as { id: string };
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${baseURL}/api/v1/batches/${id}?wait=10`, { headers: { authorization: `Bearer ${key}` } })).json()) as { state: string }).state,
        {
          timeout: 120_000,
        },
      )
      .toBe("succeeded");
  };
  await runCommit(1);
  await runCommit(2);
  // The code under test gets 25 % slower (the sleep's delay), and stays so: the confirmation agrees.
  await sql(`UPDATE "Variant" SET "config" = $1 WHERE "name" = 'Baseline' AND "experimentId" = (SELECT "id" FROM "Experiment" WHERE "slug" = $2)`, [
    { workload: "sleep", settings: { ms: 250 } },
    experimentSlug,
  ]);
  await runCommit(3);

  await page.goto(`${EXAMPLES}/alerts?status=all`);
  const alert = page.getByTestId("alert-row").filter({ hasText: title }).first();
  await expect(async () => {
    await page.reload();
    await expect(alert).toHaveAttribute("data-status", "open", { timeout: 1000 });
  }).toPass({ timeout: 120_000 });
  await expect(alert.getByTestId("alert-confirmation")).toHaveText(
    /^Confirmed by a confirmation batch of 4 runs: median 2\d\d(\.\d+)? ms against 2\d\d(\.\d+)? ms before/,
  );
  await expect(alert.getByTestId("alert-batches")).toHaveText(/^flagged by the batch of .* \(3 runs\) · confirmation batch of .* \(4 runs\)$/);

  await alert.getByRole("button", { name: "Noise" }).click();
  await expect(alert.getByTestId("alert-judgement")).toContainText("Marked noise by Olivia Owner");
  await alert.getByRole("button", { name: "Real" }).click();
  await expect(alert.getByTestId("alert-judgement")).toContainText("Marked real by Olivia Owner");
  await expect(alert.getByRole("button", { name: "Real" })).toHaveAttribute("aria-pressed", "true");
  await shot(page, "noise-alerts-page");

  await page.goto(url);
  await expect(page.getByTestId("alert-rule").getByTestId("rule-record")).toHaveText("right 1 of 1 (marked real 1, noise 0)");
  await page.getByTestId("alert-rule").scrollIntoViewIfNeeded();
  await shot(page, "noise-confirm-experiment-page");
});
