// One load test across two Go agents, from the page alone: the variant form's Agents field (with
// what the `shards` capability is and which online agents offer it), the Run dialog saying how
// many agents each run needs and which are online with `shards`, and the stored run's per-agent
// figures — clock offsets, start skew and the agents' series stacked. The target is a small HTTP
// server this test starts on 127.0.0.1.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
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

test("split a variant over two agents in the form, see who can take it in the Run dialog, and read each agent's part of the run", async ({ page, baseURL }) => {
  test.skip(!fs.existsSync(GO_AGENT), "the Go agent was not built (Go is not installed): only it offers shards");

  const projectSlug = await createProjectViaUi(page, `Split walk ${uniqueSuffix()}`);
  await openForm(page, `/p/${projectSlug}/agents`);
  const tokenForm = page.getByRole("form", { name: "New enrollment token" });
  await tokenForm.getByLabel("Name").fill("split");
  await tokenForm.getByRole("button", { name: "Create token" }).click();
  const token = ((await page.getByTestId("enrollment-token-secret").textContent()) ?? "").trim();
  const names = [1, 2].map((i) => `split-${i}-${uniqueSuffix()}`);
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
  await openForm(page, `/p/${projectSlug}/new`);
  const title = `Split load ${uniqueSuffix()}`;
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Warm-up runs").fill("0");
  await page.getByLabel("Measured runs").fill("1");
  await page.locator('[id="variants.0.name"]').fill("Split");
  await page.getByRole("button", { name: "Remove variant 2" }).click();
  const config = "variants.0.config";
  await page.locator(`[id="${config}.workload"]`).selectOption("http");
  await page.locator(`[id="${config}.settings.url"]`).fill(targetUrl);
  await page.locator(`[id="${config}.settings.rate"]`).fill("100");
  await page.locator(`[id="${config}.settings.duration"]`).fill("3");
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
});
