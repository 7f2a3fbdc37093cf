import { expect, test } from "@playwright/test";
import { addMetric, createProjectViaUi, openForm, uniqueSuffix } from "./helpers";

test("the example data is there on first start", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: /Examples/ }).click();
  await expect(page.getByRole("table", { name: "Experiments" })).toContainText("S3 upload: plain vs gzip");
  await expect(page.getByText("example data").first()).toBeVisible();
});

test("create an experiment through the UI, see it listed, open it", async ({ page }) => {
  const suffix = uniqueSuffix();
  const projectSlug = await createProjectViaUi(page, `Team ${suffix}`);
  await expect(page.getByText("No experiments yet.")).toBeVisible();

  await page.getByRole("link", { name: "New experiment" }).first().click();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible();
  await page.getByLabel("Title").fill(`Kafka serializers ${suffix}`);
  await page.getByLabel("Hypothesis").fill("kotlinx.serialization sends faster than Spring's JSON serializer");
  await page.getByLabel("Measured runs").fill("5");
  await page.getByRole("button", { name: "Add parameter" }).click();
  await page.locator('[id="parameters.0.name"]').fill("messages per run");
  await page.locator('[id="parameters.0.value"]').fill("1,000,000");
  await page.locator('[id="variants.0.name"]').fill("SPRING_JSON");
  await page.locator('[id="variants.1.name"]').fill("KOTLINX_JSON");
  await addMetric(page, 0, { key: "send_time_ms", unit: "ms", direction: "lower is better" });
  await addMetric(page, 1, { key: "message_size_bytes", unit: "B", direction: "lower is better" });
  await page.getByRole("button", { name: "Create experiment" }).click();

  await expect(page.getByRole("heading", { level: 1, name: `Kafka serializers ${suffix}` })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/p/${projectSlug}/e/kafka-serializers-${suffix}$`));
  const variants = page.getByRole("table", { name: "Variants" });
  await expect(variants.getByRole("row", { name: /SPRING_JSON/ })).toContainText("baseline");
  await expect(variants).toContainText("KOTLINX_JSON");
  await expect(page.getByRole("table", { name: "Metrics" })).toContainText("send_time_ms");
  await expect(page.getByRole("table", { name: "Metrics" })).toContainText("lower is better");
  await expect(page.getByText("messages per run")).toBeVisible();

  await page
    .getByRole("navigation", { name: "Breadcrumb" })
    .getByRole("link", { name: `Team ${suffix}` })
    .click();
  const list = page.getByRole("table", { name: "Experiments" });
  await expect(list).toContainText(`Kafka serializers ${suffix}`);
  await list.getByRole("link", { name: `Kafka serializers ${suffix}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Kafka serializers ${suffix}` })).toBeVisible();
});

test("bad input is refused with a message beside each field, and nothing is created", async ({ page }) => {
  const suffix = uniqueSuffix();
  const projectSlug = await createProjectViaUi(page, `Bad input ${suffix}`);
  await openForm(page, `/p/${projectSlug}/new`);

  await page.getByLabel("Warm-up runs").fill("-1");
  await page.getByLabel("Measured runs").fill("0");
  await page.locator('[id="variants.1.name"]').fill("Baseline");
  await page.getByRole("button", { name: "Add metric" }).click();
  await page.locator('[id="metrics.0.key"]').fill("latency_ms");
  await page.getByRole("button", { name: "Create experiment" }).click();

  await expect(page.getByRole("alert").first()).toBeVisible();
  await expect(page.getByText("title is required")).toBeVisible();
  await expect(page.getByText("warm-up runs cannot be negative")).toBeVisible();
  await expect(page.getByText("measured runs must be at least 1")).toBeVisible();
  await expect(page.getByText('duplicate variant name "Baseline"')).toBeVisible();
  await expect(page.getByText("unit is required", { exact: false })).toBeVisible();
  await expect(page.getByText("choose whether lower or higher is better")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");

  // Two baselines are impossible in the form (one radio group); zero is possible by removing it.
  await page.getByRole("button", { name: "Remove variant 1" }).click();
  await expect(page.getByText("exactly one variant must be the baseline (none is)")).toBeVisible();

  await page.goto(`/p/${projectSlug}`);
  await expect(page.getByText("No experiments yet.")).toBeVisible();
});

test("edit an experiment: rename it and move the baseline", async ({ page }) => {
  const suffix = uniqueSuffix();
  const projectSlug = await createProjectViaUi(page, `Edits ${suffix}`);
  await openForm(page, `/p/${projectSlug}/new`);
  await page.getByLabel("Title").fill(`HTTP vs gRPC ${suffix}`);
  await page.locator('[id="variants.0.name"]').fill("gRPC/Unary");
  await page.locator('[id="variants.1.name"]').fill("HTTP/Binary");
  await addMetric(page, 0, { key: "throughput", unit: "req/s", direction: "higher is better" });
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `HTTP vs gRPC ${suffix}` })).toBeVisible();

  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible();
  await page.getByLabel("Title").fill(`HTTP vs gRPC, 1 MB ${suffix}`);
  await page.getByTestId("variant-row").nth(1).getByLabel("Baseline").check();
  await page.getByRole("button", { name: "Save changes" }).click();

  await expect(page.getByRole("heading", { level: 1, name: `HTTP vs gRPC, 1 MB ${suffix}` })).toBeVisible();
  const variants = page.getByRole("table", { name: "Variants" });
  await expect(variants.getByRole("row", { name: /HTTP\/Binary/ })).toContainText("baseline");
  await expect(variants.getByRole("row", { name: /gRPC\/Unary/ })).not.toContainText("baseline");
});

test("a taken slug is reported beside the slug field by the server", async ({ page }) => {
  const suffix = uniqueSuffix();
  const projectSlug = await createProjectViaUi(page, `Slugs ${suffix}`);
  for (const attempt of [1, 2]) {
    await openForm(page, `/p/${projectSlug}/new`);
    await page.getByLabel("Title").fill(`Attempt ${attempt}`);
    await page.getByLabel("Slug").fill("same-slug");
    await addMetric(page, 0, { key: "latency", unit: "ms", direction: "lower is better" });
    await page.getByRole("button", { name: "Create experiment" }).click();
    if (attempt === 1) await expect(page.getByRole("heading", { level: 1, name: "Attempt 1" })).toBeVisible();
  }
  await expect(page.locator("#slug-error")).toHaveText('an experiment with slug "same-slug" already exists in this project');
  await expect(page.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
});

test("health endpoint reports the app and the database", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { status: string; database: { status: string } };
  expect(body.status).toBe("ok");
  expect(body.database.status).toBe("ok");
});
