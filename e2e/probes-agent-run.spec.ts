// F15's walk with a real agent: two servers under test on 127.0.0.1 (versus-target, client_golang's
// process and Go metrics at /metrics), "lean" burning little CPU and "busy" half a core more; an
// http experiment built with the form alone whose variants each load their own server and probe
// its /metrics (presets process + go), the probe's metrics added with one click; a Go agent
// enrolled through the Agents page runs the batch, and the page shows the Server group with the
// servers' CPU per variant and its verdict (busy worse than lean), memory and heap, and the CPU of
// every run over time. The agent and the targets are built here from agents/go, so the binary
// always has the current probe code.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect, test } from "@playwright/test";
import { createProjectViaUi, openForm, runsOf, shot, uniqueSuffix } from "./helpers";

const GO_MODULE = path.resolve(import.meta.dirname, "../agents/go");
const hasGo = spawnSync("go", ["version"], { stdio: "ignore" }).status === 0;
/** Share of one core each target keeps busy besides answering the load. */
const VARIANTS = [
  { name: "lean", burn: 0.05 },
  { name: "busy", burn: 0.6 },
] as const;
const RUNS = 4;

let dir = "";
const children: ChildProcess[] = [];
const targets: string[] = [];

/** Starts versus-target on a free loopback port and returns its base URL (it prints it first). */
async function startTarget(binary: string, burn: number): Promise<string> {
  const child = spawn(binary, ["-addr", "127.0.0.1:0", "-metrics", "-burn", String(burn)], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`versus-target exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  const match = /listening on (http:\/\/\S+?)\/?$/.exec(line);
  if (!match?.[1]) throw new Error(`versus-target printed "${line}"`);
  return match[1];
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
}

test.beforeAll(async () => {
  if (!hasGo) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-probes-walk-"));
  for (const command of ["versus-agent", "versus-target"])
    execFileSync("go", ["build", "-o", path.join(dir, command), `./cmd/${command}`], { cwd: GO_MODULE, stdio: "inherit" });
  for (const variant of VARIANTS) targets.push(await startTarget(path.join(dir, "versus-target"), variant.burn));
});

test.afterAll(async () => {
  for (const child of children) await stop(child);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test.describe.configure({ timeout: 300_000 });

test("a probe on each variant's server, added in the form and run by a Go agent: the page shows the servers' CPU, memory and heap per variant with verdicts", async ({
  page,
  baseURL,
}) => {
  test.skip(!hasGo, "Go is not installed: the Go agent and the targets cannot be built");

  // A new project and a Go agent enrolled in it through its Agents page.
  const projectSlug = await createProjectViaUi(page, `Probes walk ${uniqueSuffix()}`);
  await openForm(page, `/p/${projectSlug}/agents`);
  const tokenForm = page.getByRole("form", { name: "New enrollment token" });
  await tokenForm.getByLabel("Name").fill("probes walk");
  await tokenForm.getByRole("button", { name: "Create token" }).click();
  const token = ((await page.getByTestId("enrollment-token-secret").textContent()) ?? "").trim();
  expect(token).toMatch(/^venr_/);
  const agentName = `probes-${uniqueSuffix()}`;
  const agent = spawn(path.join(dir, "versus-agent"), ["agent"], {
    env: {
      ...process.env,
      VERSUS_URL: baseURL,
      VERSUS_ENROLLMENT_TOKEN: token,
      VERSUS_AGENT_NAME: agentName,
      VERSUS_AGENT_CREDENTIAL_FILE: path.join(dir, "credential.json"),
      VERSUS_AGENT_BUFFER_DIR: path.join(dir, "buffer"),
    },
    stdio: "ignore",
  });
  children.push(agent);
  await page.reload();
  await expect(page.getByRole("table", { name: "Agents" }).getByTestId("agent").filter({ hasText: agentName })).toHaveAttribute("data-status", "online", {
    timeout: 60_000,
  });

  // The experiment: each variant loads its own server and probes its /metrics.
  await openForm(page, `/p/${projectSlug}/new`);
  const title = `Lean vs busy server ${uniqueSuffix()}`;
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Warm-up runs").fill("0");
  await page.getByLabel("Measured runs").fill(String(RUNS));
  const editors = page.getByTestId("workload-editor");
  for (const [index, variant] of VARIANTS.entries()) {
    const config = `variants.${index}.config`;
    await page.locator(`[id="variants.${index}.name"]`).fill(variant.name);
    await page.locator(`[id="${config}.workload"]`).selectOption("http");
    // A steady, light load (an open model at 100 req/s), so what differs between the servers is their own work.
    await page.locator(`[id="${config}.settings.url"]`).fill(`${targets[index]}/`);
    await page.locator(`[id="${config}.settings.duration"]`).fill("2");
    await page.locator(`[id="${config}.settings.rate"]`).fill("100");
    await editors.nth(index).getByRole("button", { name: "Add probe" }).click();
    const probe = `${config}.probes.0`;
    await page.locator(`[id="${probe}.name"]`).fill("app");
    await page.locator(`[id="${probe}.url"]`).fill(`${targets[index]}/metrics`);
    await editors.nth(index).getByRole("checkbox", { name: /^go/ }).check();
    await page.locator(`[id="${probe}.intervalSeconds"]`).fill("0.5");
  }
  // The probe's metrics with one click; the other variant's probe has the same name, so the same keys.
  const probeMetrics = editors.nth(0).getByTestId("probe-row").getByTestId("probe-metrics");
  await expect(probeMetrics.getByTestId("probe-metric").filter({ hasText: "app.heap_inuse_peak" })).toContainText("B · lower is better · per run: max");
  await probeMetrics.getByRole("button", { name: "Add all 8 metrics" }).click();
  await expect(editors.nth(1).getByTestId("probe-metrics")).toContainText("all in the experiment's metrics");
  const offered = editors.nth(0).getByTestId("workload-metrics").first();
  await offered.getByRole("button", { name: "Add metric latency", exact: true }).click();
  const keys = await page.locator('[id^="metrics."][id$=".key"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
  expect(keys).toEqual([
    "app.cpu_percent",
    "app.cpu_percent_max",
    "app.rss",
    "app.rss_peak",
    "app.gc_count",
    "app.gc_time",
    "app.heap_inuse",
    "app.heap_inuse_peak",
    "latency",
  ]);
  await shot(page, "probes-walk-form");
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // The experiment says what each variant probes.
  await expect(page.getByTestId("variant-probe")).toHaveText([
    `probe app prometheus ${targets[0]}/metrics (process, go) every 0.5 s`,
    `probe app prometheus ${targets[1]}/metrics (process, go) every 0.5 s`,
  ]);

  // Run: the agent takes the jobs, since it offers http and probe:prometheus.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Run “/ });
  await expect(dialog.locator('form[data-ready="true"]')).toBeVisible();
  await dialog.getByRole("button", { name: `Run ${RUNS * 2} jobs` }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("batch").first().getByTestId("batch-tallies")).toHaveText(`${RUNS * 2} done`, { timeout: 180_000 });

  // The Server group: the servers' CPU per variant, busy worse than lean; memory and heap beside it.
  const comparison = page.getByRole("region", { name: /^Comparison/ });
  await expect(comparison.getByRole("heading", { level: 3 })).toHaveText([/^Client/, /^Server/]);
  await expect(comparison.getByTestId("server-group")).toContainText("from the variants' probes (app)");
  const cpu = comparison.getByRole("table", { name: "Comparison of app.cpu_percent", exact: true });
  await expect(cpu.locator('tr[data-variant="lean"]')).toContainText("%");
  await expect(cpu.locator('tr[data-variant="busy"]')).toContainText("worse");
  for (const metric of ["app.rss", "app.heap_inuse"]) {
    const table = comparison.getByRole("table", { name: `Comparison of ${metric}`, exact: true });
    for (const variant of VARIANTS) await expect(table.locator(`tr[data-variant="${variant.name}"]`)).toContainText("MiB");
  }

  // Each run's CPU is one value per interval of its measured part: 2 s at 0.5 s gives 4.
  const runsOfCpu = (await runsOf(page, "app.cpu_percent")).locator("tbody tr");
  await expect(runsOfCpu).toHaveCount(RUNS * 2);
  await expect(runsOfCpu.locator("td:nth-child(4)")).toHaveText(Array.from({ length: RUNS * 2 }, () => "4"));

  // The CPU of every run over time: one line per run, both variants.
  await page.getByRole("group", { name: "Chart of app.cpu_percent", exact: true }).getByRole("button", { name: "Over time" }).click();
  const chart = page.locator('figure[data-chart="app.cpu_percent/time"]');
  await expect(chart.locator(".recharts-line-curve")).toHaveCount(RUNS * 2);
  await expect(chart.locator("[data-legend-item]")).toHaveText(["lean", "busy"]);
  await shot(page, "probes-walk-experiment");
});
