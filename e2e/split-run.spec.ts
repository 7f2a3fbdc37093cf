// One load test across two Go agents, from the page alone: the variant form's Agents field (with
// what the `shards` capability is and which online agents offer it), the Run dialog saying how
// many agents each run needs and which are online with `shards`, and the stored run's per-agent
// figures — clock offsets, start skew and the agents' series stacked. Then the same agents as a
// pool chosen by their label: the form's pool fields, the Run dialog counting the pool and
// refusing Run below its minimum, and a run made by every agent of the pool once it is enough.
// The target is a small HTTP server this test starts on 127.0.0.1.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { createProjectViaUi, openForm, shot, uniqueSuffix } from "./helpers";

const GO_AGENT = path.resolve(import.meta.dirname, "../agents/go/bin/versus-agent");
let target: http.Server;
let targetUrl = "";
const agents: ChildProcess[] = [];
const dirs: string[] = [];

test.beforeAll(async () => {
  target = http.createServer((_request, response) => response.end("ok"));
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/`;
});

test.afterAll(async () => {
  for (const agent of agents) {
    if (agent.exitCode !== null) continue;
    agent.kill("SIGTERM");
    await new Promise((resolve) => agent.once("exit", resolve));
  }
  await new Promise((resolve) => target.close(resolve));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test.describe.configure({ timeout: 300_000 });

const config = "variants.0.config";

/** Fills the new-experiment form up to the variant's agents: one http variant, one measured run of 3 s at 100 req/s on the test's target. */
async function newHttpExperiment(page: Page, projectSlug: string, title: string, variant: string): Promise<string> {
  await openForm(page, `/p/${projectSlug}/new`);
  const unique = `${title} ${uniqueSuffix()}`;
  await page.getByLabel("Title").fill(unique);
  await page.getByLabel("Warm-up runs").fill("0");
  await page.getByLabel("Measured runs").fill("1");
  await page.locator('[id="variants.0.name"]').fill(variant);
  await page.getByRole("button", { name: "Remove variant 2" }).click();
  await page.locator(`[id="${config}.workload"]`).selectOption("http");
  await page.locator(`[id="${config}.settings.url"]`).fill(targetUrl);
  await page.locator(`[id="${config}.settings.rate"]`).fill("100");
  await page.locator(`[id="${config}.settings.duration"]`).fill("3");
  return unique;
}

test("split a variant over two agents in the form, see who can take it in the Run dialog, and read each agent's part of the run", async ({ page, baseURL }) => {
  test.skip(!fs.existsSync(GO_AGENT), "the Go agent was not built (Go is not installed): only it offers shards");

  const projectSlug = await createProjectViaUi(page, `Split walk ${uniqueSuffix()}`);
  await openForm(page, `/p/${projectSlug}/agents`);
  const tokenForm = page.getByRole("form", { name: "New enrollment token" });
  await tokenForm.getByLabel("Name").fill("split");
  await tokenForm.getByRole("button", { name: "Create token" }).click();
  const token = ((await page.getByTestId("enrollment-token-secret").textContent()) ?? "").trim();
  const names = [1, 2].map((i) => `split-${i}-${uniqueSuffix()}`);
  const pool = `pool=split-${uniqueSuffix()}`;
  for (const name of names) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-split-agent-"));
    dirs.push(dir);
    agents.push(
      spawn(GO_AGENT, ["agent"], {
        env: {
          ...process.env,
          VERSUS_URL: baseURL,
          VERSUS_ENROLLMENT_TOKEN: token,
          VERSUS_AGENT_NAME: name,
          VERSUS_AGENT_CREDENTIAL_FILE: path.join(dir, "credential.json"),
          VERSUS_AGENT_BUFFER_DIR: path.join(dir, "buffer"),
          VERSUS_AGENT_LABELS: pool,
        },
        stdio: "ignore",
      }),
    );
  }
  await page.reload();
  for (const name of names) {
    await expect(page.getByRole("table", { name: "Agents" }).getByTestId("agent").filter({ hasText: name })).toHaveAttribute("data-status", "online", {
      timeout: 60_000,
    });
  }

  // The experiment: one http variant made by two agents at once.
  const title = await newHttpExperiment(page, projectSlug, "Split load", "Split");
  const agentsField = page.locator(`[id="${config}.agents"]`);
  await expect(agentsField).toHaveValue("1");
  const hint = page.locator(`[id="${config}.agents-hint"]`);
  await expect(hint).toContainText("each sending its share of connections, rate, maxConnections, requests");
  await expect(hint).toContainText("Each needs the “shards” capability (the Go agent offers it): 2 online offer it here");
  for (const name of names) await expect(hint).toContainText(name);
  await agentsField.fill("2");
  await expect(page.locator(`[id="${config}.onShardLoss"]`)).toHaveValue("fail");
  await page.locator(`[id="${config}.onShardLoss"]`).selectOption("partial");
  await page.getByTestId("workload-metrics").getByRole("button", { name: "Add metric latency", exact: true }).click();
  await page.getByTestId("workload-metrics").getByRole("button", { name: "Add metric throughput", exact: true }).click();
  await page.getByTestId("workload-metrics").getByRole("button", { name: "Add metric requests", exact: true }).click();
  await shot(page, "split-form");
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // The Run dialog: how many agents each run needs, and which are online with shards.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Run “/ });
  await expect(dialog.locator('form[data-ready="true"]')).toBeVisible();
  const needs = dialog.getByTestId("run-group-needs");
  await expect(needs).toContainText(
    "Each run of Split needs 2 agents at once, each sending its share of the load and offering shards (the Go agent does): 2 online",
  );
  for (const name of names) await expect(needs).toContainText(name);
  await expect(dialog.getByTestId("run-preview")).toContainText(
    "2 jobs: 1 measured run (1 for each of 1 variant), a job per agent for the runs several agents make together",
  );
  await shot(page, "split-run-dialog");
  await dialog.getByRole("button", { name: "Run 2 jobs" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("batch").first().getByTestId("batch-tallies")).toHaveText(/done/, { timeout: 120_000 });

  // One run, made by both agents: its per-agent figures, offsets, skew and stacked series.
  await page.reload();
  const runs = page.getByRole("table", { name: "Runs" });
  await expect(runs.getByRole("row").filter({ hasText: "2 agents:" })).toHaveCount(1);
  const perAgent = runs.getByTestId("run-agents");
  await perAgent.locator("summary").click();
  const table = perAgent.getByRole("table", { name: "Agents of this run" });
  await expect(table.getByRole("row")).toHaveCount(3);
  for (const name of names) await expect(table.getByRole("row", { name: new RegExp(name) })).toContainText(/[+-]?\d+(\.\d+)? ms/);
  await expect(perAgent).toContainText(/Start skew \d+(\.\d+)? ms between the agents' first measured seconds/);
  const chart = perAgent.getByRole("figure", { name: "throughput per second, stacked by agent" });
  await expect(chart.locator("svg.recharts-surface")).toBeVisible();
  await expect(chart.locator(".recharts-area")).toHaveCount(2);
  await shot(page, "split-run-agents");

  // The same agents as a pool: every online agent labelled with the pool's label, at least 3.
  const poolTitle = await newHttpExperiment(page, projectSlug, "Pool load", "Pooled");
  await page.locator(`[id="${config}.agentsMode"]`).selectOption("pool");
  await expect(page.locator(`[id="${config}.agents.min"]`)).toHaveValue("2");
  await page.locator(`[id="${config}.agents.labels"]`).fill("pool");
  await expect(page.locator(`[id="${config}.agents.labels-error"]`)).toHaveText("“pool” is not key=value: write labels as pool=lab, os=linux");
  await page.locator(`[id="${config}.agents.labels"]`).fill(pool);
  await page.locator(`[id="${config}.agents.min"]`).fill("3");
  await expect(hint).toContainText(`Counted when you press Run: every agent then online with ${pool} that offers the workload and “shards”`);
  await expect(hint).toContainText("2 online here now — ");
  for (const name of names) await expect(hint).toContainText(name);
  for (const metric of ["latency", "throughput", "requests"]) {
    await page
      .getByTestId("workload-metrics")
      .getByRole("button", { name: `Add metric ${metric}`, exact: true })
      .click();
  }
  await shot(page, "pool-form");
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: poolTitle })).toBeVisible();

  // Two online in the pool, three asked for: the dialog says so and Run is refused.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(dialog.locator('form[data-ready="true"]')).toBeVisible();
  const poolNeeds = dialog.getByTestId("run-pool");
  await expect(poolNeeds).toContainText(
    `Each run of Pooled is made by every online agent labelled ${pool} that offers shards, at least 3, counted when you press Run:`,
  );
  await expect(poolNeeds).toContainText(/only 2 online now \(.+\), so Run is refused until 1 more is\./);
  for (const name of names) await expect(poolNeeds).toContainText(name);
  await dialog.getByRole("button", { name: "Run 2 jobs" }).click();
  await expect(dialog.locator("#run-variants-error")).toContainText("too few agents online in the pool");
  await shot(page, "pool-run-dialog-short", poolNeeds);
  await expect(page.getByTestId("batch")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Close" }).click();

  // At least 2: both agents of the pool make the run.
  await openForm(page, `${new URL(page.url()).pathname}/edit`);
  await page.locator(`[id="${config}.agents.min"]`).fill("2");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: poolTitle })).toBeVisible();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(dialog.locator('form[data-ready="true"]')).toBeVisible();
  await expect(poolNeeds).toContainText("2 online now — ");
  for (const name of names) await expect(poolNeeds).toContainText(name);
  await shot(page, "pool-run-dialog", poolNeeds);
  await dialog.getByRole("button", { name: "Run 2 jobs" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("batch").first().getByTestId("batch-tallies")).toHaveText(/done/, { timeout: 120_000 });
  await page.reload();
  await expect(runs.getByRole("row").filter({ hasText: "2 agents:" })).toHaveCount(1);
});
