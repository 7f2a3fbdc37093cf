// A new user builds, runs and reads an http experiment from the page alone: a new project, an
// enrollment token from its Agents page and a Go agent started with it (the binary `npm start`
// builds for its local agent, run as a user would in a terminal), then the experiment form with
// the typed http settings (url, a header, duration, connections — no raw JSON) and the workload's
// metrics added with one click, Run, and the verdict. The target is a small HTTP server this test
// starts on 127.0.0.1: /fast answers at once, /slow after 5 ms. Then a batch no agent can take (its
// labels) says why on the batch panel.
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
const headersSeen = new Set<string>();
let agent: ChildProcess | undefined;
let agentDir = "";

test.beforeAll(async () => {
  target = http.createServer((request, response) => {
    const header = request.headers["x-walk"];
    if (typeof header === "string") headersSeen.add(header);
    const answer = () => response.end("ok");
    if (request.url === "/slow") setTimeout(answer, 5);
    else answer();
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}`;
});

test.afterAll(async () => {
  if (agent && agent.exitCode === null) {
    agent.kill("SIGTERM");
    await new Promise((resolve) => agent?.once("exit", resolve));
  }
  await new Promise((resolve) => target.close(resolve));
  if (agentDir) fs.rmSync(agentDir, { recursive: true, force: true });
});

test.describe.configure({ timeout: 300_000 });

test("build an http experiment with the form alone, run it on a Go agent, read the verdict; a batch no agent can take says why", async ({ page, baseURL }) => {
  test.skip(
    !fs.existsSync(GO_AGENT),
    "the Go agent was not built (Go is not installed): npm start's local agent is the reference agent, which has no http workload",
  );

  // A new project and an agent enrolled in it, as the Agents page tells a user to.
  const projectSlug = await createProjectViaUi(page, `HTTP walk ${uniqueSuffix()}`);
  await openForm(page, `/p/${projectSlug}/agents`);
  const tokenForm = page.getByRole("form", { name: "New enrollment token" });
  await tokenForm.getByLabel("Name").fill("walk");
  await tokenForm.getByRole("button", { name: "Create token" }).click();
  const token = ((await page.getByTestId("enrollment-token-secret").textContent()) ?? "").trim();
  expect(token).toMatch(/^venr_/);
  agentDir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-walk-agent-"));
  const agentName = `walk-${uniqueSuffix()}`;
  agent = spawn(GO_AGENT, ["agent"], {
    env: {
      ...process.env,
      VERSUS_URL: baseURL,
      VERSUS_ENROLLMENT_TOKEN: token,
      VERSUS_AGENT_NAME: agentName,
      VERSUS_AGENT_CREDENTIAL_FILE: path.join(agentDir, "credential.json"),
      VERSUS_AGENT_BUFFER_DIR: path.join(agentDir, "buffer"),
    },
    stdio: "ignore",
  });
  await page.reload();
  await expect(page.getByRole("table", { name: "Agents" }).getByTestId("agent").filter({ hasText: agentName })).toHaveAttribute("data-status", "online", {
    timeout: 60_000,
  });

  // The experiment, from the form alone.
  await openForm(page, `/p/${projectSlug}/new`);
  const title = `Fast vs slow endpoint ${uniqueSuffix()}`;
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Warm-up runs").fill("0");
  await page.getByLabel("Measured runs").fill("4");
  await page.locator('[id="variants.0.name"]').fill("Fast");
  await page.locator('[id="variants.1.name"]').fill("Slow");
  const editors = page.getByTestId("workload-editor");
  for (const [index, endpoint] of [
    [0, "/fast"],
    [1, "/slow"],
  ] as const) {
    const settings = `variants.${index}.config.settings`;
    await page.locator(`[id="variants.${index}.config.workload"]`).selectOption("http");
    // url is a field of its own, with what leaving it out does.
    await expect(editors.nth(index).getByText("Leave it out to aim at the agent's own loopback server")).toBeVisible();
    await page.locator(`[id="${settings}.url"]`).fill(`${targetUrl}${endpoint}`);
    // headers: a name and a value per row.
    await editors.nth(index).getByRole("button", { name: "Add an entry to headers" }).click();
    await page.locator(`[id="${settings}.headers.0.name"]`).fill("X-Walk");
    await page.locator(`[id="${settings}.headers.0.value"]`).fill(`variant ${index + 1}`);
    await expect(page.locator(`[id="${settings}.duration"]`)).toHaveAttribute("placeholder", "10");
    await page.locator(`[id="${settings}.duration"]`).fill("1");
    await page.locator(`[id="${settings}.connections"]`).fill("2");
  }
  // Nothing here is raw JSON.
  await expect(editors.locator("textarea")).toHaveCount(0);
  // The workload's metrics, with one click each, keys and units as the agent reports them.
  const offered = editors.nth(0).getByTestId("workload-metrics");
  // The metric keyed throughput exactly (throughput_peak is offered too).
  const throughput = offered.getByTestId("workload-metric").filter({ has: page.locator("code", { hasText: /^throughput$/ }) });
  await expect(throughput).toContainText("req/s · higher is better");
  await offered.getByRole("button", { name: "Add metric latency", exact: true }).click();
  await offered.getByRole("button", { name: "Add metric throughput", exact: true }).click();
  await expect(page.locator('[id="metrics.0.key"]')).toHaveValue("latency");
  await expect(page.locator('[id="metrics.0.unit"]')).toHaveValue("ms");
  await expect(page.locator('[id="metrics.0.direction"]')).toHaveValue("lower_is_better");
  await expect(page.locator('[id="metrics.1.key"]')).toHaveValue("throughput");
  await expect(
    editors
      .nth(1)
      .getByTestId("workload-metric")
      .filter({ has: page.locator("code", { hasText: /^latency$/ }) }),
  ).toContainText("added");
  await shot(page, "form-http");
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // Before its first run the page says Run, and who runs it.
  const empty = page.getByTestId("runnable-empty");
  await expect(empty).toContainText("No runs yet. Press Run above: it queues 8 jobs");
  await expect(empty).toContainText(`“http” runs on ${agentName} (Go agent, online).`);
  await expect(page.getByText("npx versus import")).toHaveCount(0);

  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Run “/ });
  await expect(dialog.locator('form[data-ready="true"]')).toBeVisible();
  await expect(dialog.getByTestId("run-preview")).toContainText("8 jobs: 8 measured runs (4 for each of 2 variants)");
  // Eight jobs of a 1 s load each, on one agent.
  await expect(dialog.getByTestId("run-duration")).toHaveText(
    /^Takes about 10 s — from the workloads' duration settings; start-up not included, one agent at a time\.$/,
  );
  await shot(page, "run-dialog");
  await dialog.getByRole("button", { name: "Run 8 jobs" }).click();
  await expect(dialog).toBeHidden();

  const batch = page.getByTestId("batch").first();
  await expect(batch.getByTestId("batch-tallies")).toHaveText("8 done", { timeout: 180_000 });
  const latency = page.getByRole("table", { name: "Comparison of latency", exact: true });
  await expect(latency.getByRole("row", { name: /Slow/ })).toContainText("worse");
  await expect(page.getByRole("table", { name: "Comparison of throughput", exact: true }).getByRole("row", { name: /Slow/ })).toContainText("worse");
  // The header typed in the form reached the target.
  expect([...headersSeen].sort()).toEqual(["variant 1", "variant 2"]);

  // A batch for agents with a label no agent has waits, and says why while it does.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(dialog.locator('form[data-ready="true"]')).toBeVisible();
  await expect(dialog.getByTestId("run-duration")).toContainText("from the median time of 4 or more earlier jobs per variant");
  await dialog.getByRole("radio", { name: "Agents with labels" }).check();
  await dialog.getByRole("textbox", { name: "Labels" }).fill("pool=nowhere");
  await dialog.getByRole("button", { name: "Run 8 jobs" }).click();
  await expect(dialog).toBeHidden();
  const waiting = page.getByTestId("batch").first().getByTestId("batch-waiting");
  await expect(waiting).toContainText("8 jobs wait: no agent can take them now.");
  await expect(waiting).toContainText(`No agent offering “http” has the labels pool=nowhere (${agentName}: `);
  await page.reload();
  await expect(page.getByTestId("batch").first().getByTestId("batch-waiting")).toContainText("has the labels pool=nowhere");
  await shot(page, "waiting-batch");
  page.once("dialog", (confirm) => void confirm.accept());
  await page.getByTestId("batch").first().getByRole("button", { name: "Cancel batch" }).click();
  await expect(page.getByTestId("batch").first().getByTestId("batch-waiting")).toHaveCount(0);
});

test("a runnable example says Run and who runs it, or how to start the agent that has its workload against this server's own address", async ({
  page,
  baseURL,
}) => {
  // No JVM agent is enrolled in the Examples project: the page says which agent has "json" and how to start it here.
  await page.goto("/p/examples/e/serializer-objectmapper-runnable");
  const empty = page.getByTestId("runnable-empty");
  await expect(empty).toContainText("No runs yet. Press Run above: it queues 12 jobs");
  await expect(empty).toContainText("No agent of this project offers “json” yet. The JVM agent (agents/jvm) has it");
  await expect(empty.locator("pre")).toHaveText(
    `cd agents/jvm && mvn -B package\njava -jar agent/target/versus-agent-jvm.jar --url ${baseURL} --enrollment-token venr_…`,
  );
  await expect(page.getByTestId("example-badge")).toHaveText("runnable example");
  // Its description says which agent measures it, in words that stay true after the first run.
  const description = page.getByRole("region", { name: "Description" });
  await expect(description).toContainText("Measured on your machines by the JVM agent");
  await expect(description).not.toContainText(/Press Run|no results yet|localhost:3000/);
  await shot(page, "runnable-example-jvm");
  // A write-up's seeded runs are example data.
  await page.goto("/p/examples/e/s3-upload-plain-vs-gzip");
  await expect(page.getByTestId("example-badge")).toHaveText("example data");
  await expect(page.getByTestId("example-notice")).toContainText("Example data. This experiment ships with Versus");
});
