// The write-ups a fresh install re-runs on the Go agent (HTTP vs gRPC, 1 MB; cache and scale-out;
// S3 upload), pressed Run on in the Examples project: the local Go agent of `npm start` starts the
// bundled target's processes for each job, and the page draws the client's and the servers'
// figures. Each example is first shortened in its own form (no warm-up run, one measured run, 3 s
// per job or 20 uploads) so the walk stays short; everything else runs as shipped. (The JVM
// agent's write-ups run end to end in test/reliability/jvm-runnable-write-ups.rel.test.ts.) And in a project with no agent, the Run dialog
// says what is missing and where to get it.
import { expect, test, type Page } from "@playwright/test";
import superjson from "superjson";
import { createProjectViaUi, openForm, shot, uniqueSuffix } from "./helpers";

const EXAMPLES = "/p/examples";

async function localGoAgent(page: Page): Promise<boolean> {
  await page.goto(`${EXAMPLES}/agents`);
  const agent = page.getByRole("table", { name: "Agents" }).getByTestId("agent").first();
  await expect(agent).toHaveAttribute("data-status", "online", { timeout: 90_000 });
  return (await agent.getByLabel("Capabilities").innerText()).includes("grpc");
}

/** One measured run per variant, no warm-up run, and `settings` (3 s of load after 1 s of warm-up unless said): through the experiment's own form. */
async function shorten(page: Page, slug: string, variants: number, settings: Record<string, string> = { duration: "3", warmupSeconds: "1" }) {
  await openForm(page, `${EXAMPLES}/e/${slug}/edit`);
  await page.getByLabel("Warm-up runs").fill("0");
  await page.getByLabel("Measured runs").fill("1");
  for (let index = 0; index < variants; index++)
    for (const [setting, value] of Object.entries(settings)) await page.locator(`[id="variants.${index}.config.settings.${setting}"]`).fill(value);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeVisible();
}

async function run(page: Page, jobs: number) {
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Run “/ });
  const form = dialog.locator('form[aria-label="Run experiment"][data-ready="true"]');
  await expect(form.getByTestId("run-agents")).toContainText("Can run now: local-");
  await form.getByRole("button", { name: `Run ${jobs} jobs` }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("batch").first().getByTestId("batch-tallies")).toHaveText(`${jobs} done`, { timeout: 150_000 });
}

test.describe.configure({ timeout: 240_000 });

test("Run on HTTP vs gRPC (runnable): the four protocols' throughput, latency percentiles, data moved and the server's heap and GC", async ({ page }) => {
  test.skip(!(await localGoAgent(page)), "the local agent has no grpc workload (Go is not installed)");
  await shorten(page, "http-vs-grpc-1mb-runnable", 4);
  await run(page, 4);

  const comparison = page.getByRole("region", { name: /^Comparison/ });
  await expect(comparison.getByRole("heading", { level: 3 })).toHaveText([/^Client/, /^Server/]);
  for (const metric of ["throughput", "latency_p95", "bytes_total", "server.heap_inuse_peak", "server.gc_count"]) {
    const table = comparison.getByRole("table", { name: `Comparison of ${metric}`, exact: true });
    for (const variant of ["gRPC/Unary", "HTTP/Binary", "HTTP/JSON", "gRPC/Stream"])
      await expect(table.locator(`tr[data-variant="${variant}"]`)).toHaveCount(1);
  }
  await expect(comparison.getByRole("table", { name: "Comparison of bytes_total", exact: true }).locator('tr[data-variant="HTTP/JSON"]')).toContainText("B");

  // Requests per second over time: a line per run, one legend entry per protocol.
  await page.getByRole("group", { name: "Chart of throughput", exact: true }).getByRole("button", { name: "Over time" }).click();
  const chart = page.locator('figure[data-chart="throughput/time"]');
  await expect(chart.locator(".recharts-line-curve")).toHaveCount(4);
  await expect(chart.locator("[data-legend-item]")).toHaveText(["gRPC/Unary", "HTTP/Binary", "HTTP/JSON", "gRPC/Stream"]);
  await chart.scrollIntoViewIfNeeded();
  await shot(page, "runnable-http-vs-grpc");
});

test("Run on cache and scale-out (runnable): TPS per second, peak TPS, errors and each server's CPU", async ({ page }) => {
  test.skip(!(await localGoAgent(page)), "the local agent has no http workload (Go is not installed)");
  await shorten(page, "cache-scale-out-runnable", 4);
  await run(page, 4);

  const comparison = page.getByRole("region", { name: /^Comparison/ });
  for (const metric of ["throughput", "throughput_peak", "errors", "app-1.cpu_percent"]) {
    const table = comparison.getByRole("table", { name: `Comparison of ${metric}`, exact: true });
    for (const variant of ["No cache", "Cache", "Balancer, one server", "Balancer, two servers"])
      await expect(table.locator(`tr[data-variant="${variant}"]`)).toHaveCount(1);
  }
  // Only the two-server variant has a second server.
  const app2 = comparison.getByRole("table", { name: "Comparison of app-2.cpu_percent", exact: true });
  await expect(app2.locator('tr[data-variant="Balancer, two servers"]')).toContainText("%");

  // TPS second by second, a line per variant's run.
  await page.getByRole("group", { name: "Chart of throughput", exact: true }).getByRole("button", { name: "Over time" }).click();
  const tps = page.locator('figure[data-chart="throughput/time"]');
  await expect(tps.locator(".recharts-line-curve")).toHaveCount(4);
  await tps.scrollIntoViewIfNeeded();
  await shot(page, "runnable-cache-scale-out");
});

test("Run on S3 upload, e-mail (runnable): gzip sends a small fraction of the bytes, and every PUT waits the target's 20 ms", async ({ page }) => {
  test.skip(!(await localGoAgent(page)), "the local agent has no s3 workload (Go is not installed)");
  await shorten(page, "s3-upload-mail-runnable", 2, { operations: "20", warmupOperations: "5" });
  await run(page, 2);

  const comparison = page.getByRole("region", { name: /^Comparison/ });
  for (const metric of ["upload_time", "put_time", "compress_time", "sent_bytes"]) {
    const table = comparison.getByRole("table", { name: `Comparison of ${metric}`, exact: true });
    for (const variant of ["Plain", "Gzip"]) await expect(table.locator(`tr[data-variant="${variant}"]`)).toHaveCount(1);
  }
  // 50 KiB of HTML sent plain; gzipped, under a tenth of it (the change reads as a ratio, 0.0…×).
  const sent = comparison.getByRole("table", { name: "Comparison of sent_bytes", exact: true });
  await expect(sent.locator('tr[data-variant="Plain"]')).toContainText("50 KiB");
  await expect(sent.locator('tr[data-variant="Gzip"]')).toContainText(/0\.0\d+×/);
  await sent.scrollIntoViewIfNeeded();
  await shot(page, "runnable-s3-mail");
});

test("the Kafka example (runnable) with no JVM agent: the page says how to start one with the local broker, the Run dialog what is missing", async ({
  page,
  baseURL,
}) => {
  // The browser tests' server runs no JVM agent (VERSUS_LOCAL_JVM_AGENT=0 in playwright.config.ts).
  await page.goto(`${EXAMPLES}/e/kafka-serializers-runnable`);
  const empty = page.getByTestId("runnable-empty");
  await expect(empty).toContainText("No agent of this project offers “kafka” yet. The JVM agent (agents/jvm) has it");
  await expect(empty.locator("pre")).toHaveText(
    `cd agents/jvm && mvn -B package\nVERSUS_KAFKA_BROKER_JAR=$PWD/local-broker/target/versus-kafka-broker.jar java -jar agent/target/versus-agent-jvm.jar --url ${baseURL} --enrollment-token venr_…`,
  );
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Run “/ });
  await expect(dialog.getByTestId("run-no-agent")).toContainText("No online agent can run “kafka” with a local Kafka broker");
  const missing = dialog.getByTestId("run-missing").getByRole("listitem");
  await expect(missing).toHaveCount(2);
  await expect(missing.first()).toContainText(
    "“kafka”: a workload of the JVM agent (agents/jvm); npm start runs it beside the Go agent where a JDK 17 and Maven",
  );
  await expect(missing.last()).toContainText("a Kafka broker of the run's own (the kafka workload's localBroker setting)");
  await shot(page, "run-dialog-missing-kafka");
});

test("with no agent in the project, the Run dialog says which agent has the workload and the probes, and how to get it", async ({ page }) => {
  const projectSlug = await createProjectViaUi(page, `No agents ${uniqueSuffix()}`);
  const response = await page.request.post("/api/trpc/experiment.create", {
    headers: { "content-type": "application/json" },
    data: superjson.serialize({
      projectSlug,
      experiment: {
        title: "gRPC with a probe",
        warmupRuns: 0,
        measuredRuns: 3,
        variants: [
          {
            name: "Unary",
            isBaseline: true,
            config: {
              workload: "grpc",
              settings: { target: "127.0.0.1:50051", method: "versus.target.Payloads/Unary" },
              probes: [{ name: "server", kind: "prometheus", url: "http://127.0.0.1:8081/metrics", presets: ["process"] }],
            },
          },
        ],
        metrics: [{ key: "throughput", unit: "req/s", direction: "higher_is_better" }],
      },
    }),
  });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto(`/p/${projectSlug}`);
  await page.getByRole("link", { name: "gRPC with a probe" }).click();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Run “/ });
  await expect(dialog.getByTestId("run-no-agent")).toContainText("No online agent can run “grpc” with prometheus probes");
  const missing = dialog.getByTestId("run-missing").getByRole("listitem");
  await expect(missing).toHaveCount(2);
  await expect(missing.first()).toContainText("“grpc”: a workload of the Go agent (agents/go); npm start runs it as the local agent where Go is installed");
  await expect(missing.last()).toHaveText("probes of kind “prometheus”: the Go and JVM agents read them; the reference agent has none.");
  await shot(page, "run-dialog-missing");
});
