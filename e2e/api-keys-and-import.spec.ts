import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { createProjectViaUi, runsOf, uniqueSuffix } from "./helpers";

const run = promisify(execFile);

/** Runs the `versus` CLI the way a user would, against the server under test. */
async function versus(args: string[], env: { url: string; key: string }) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/cli/bin.mjs", ...args], {
      env: { ...process.env, VERSUS_URL: env.url, VERSUS_API_KEY: env.key },
    });
    return { code: 0, stdout: stdout.trim(), stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout.trim(), stderr: failed.stderr };
  }
}

test("create an API key, import `go test -bench` output with the CLI, see the numbers, revoke the key", async ({ page, baseURL }) => {
  const suffix = uniqueSuffix();
  const projectSlug = await createProjectViaUi(page, `CI ${suffix}`);
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByText("No API keys yet.")).toBeVisible();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible();
  await page.getByLabel("Name").fill("GitHub Actions");
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("api-key-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^vs_[A-Za-z0-9_-]{40,}$/);
  await expect(page.getByRole("table", { name: "API keys" })).toContainText("GitHub Actions");
  // The list never shows the secret itself.
  await expect(page.getByRole("table", { name: "API keys" })).not.toContainText(secret);

  const env = { url: baseURL as string, key: secret };
  const imported = await versus(
    ["import", "server/importers/fixtures/gobench/go-test-bench.txt", "--format", "gobench", "--experiment", "hex-vs-fmt", "--create"],
    env,
  );
  expect(imported.stderr).toContain("stored");
  expect(imported.code).toBe(0);
  expect(imported.stdout).toBe(`${baseURL}/p/${projectSlug}/e/hex-vs-fmt`);

  await page.goto(imported.stdout);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("hex-vs-fmt");
  const nsPerOp = await runsOf(page, "ns/op");
  // The first lines of the file, as `go test` printed them.
  await expect(nsPerOp.getByRole("row", { name: /BenchmarkEncode\/codec=hex\/size=16/ }).first()).toContainText("37.06");
  await expect(nsPerOp).toContainText("35.35");
  await expect(await runsOf(page, "MB/s")).toContainText("431.7");

  // Re-running the same CI step stores nothing new.
  const again = await versus(
    ["import", "server/importers/fixtures/gobench/go-test-bench.txt", "--format", "gobench", "--experiment", "hex-vs-fmt", "--create"],
    env,
  );
  expect(again.code).toBe(0);
  expect(again.stderr).toContain("already stored earlier");

  await page.goto(`/p/${projectSlug}/keys`);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Revoke GitHub Actions" }).click();
  await expect(page.getByRole("table", { name: "API keys" })).toContainText("revoked");
  const refused = await versus(
    ["import", "server/importers/fixtures/gobench/go-test-bench.txt", "--format", "gobench", "--experiment", "other", "--create"],
    env,
  );
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("was revoked");
});

test("the API page documents the endpoints and the OpenAPI document is served", async ({ page, request }) => {
  await page.goto("/api-docs");
  await expect(page.getByRole("heading", { level: 1, name: "REST API" })).toBeVisible();
  await expect(page.getByRole("region", { name: "POST /api/v1/results" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Import formats" })).toContainText("gobench");
  const document = await (await request.get("/api/v1/openapi.json")).json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/api/v1/results", "/api/v1/imports"]));
});

test("a key created to start runs may start a batch from the CLI; a key for uploads is refused", async ({ page, baseURL }) => {
  const suffix = uniqueSuffix();
  await createProjectViaUi(page, `Runs ${suffix}`);
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible();

  const createKey = async (name: string, may: string) => {
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("May").selectOption({ label: may });
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = (await page.getByTestId("api-key-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^vs_/);
    return secret;
  };
  const runKey = await createKey("CI runs", "Also start and cancel runs");
  await expect(page.getByText("npx versus run --experiment")).toBeVisible();
  const keys = page.getByRole("table", { name: "API keys" });
  await expect(keys.getByRole("row", { name: /CI runs/ })).toContainText("upload, start runs");
  await page.reload();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible();
  const uploadKey = await createKey("CI uploads", "Upload results and read comparisons");
  await expect(keys.getByRole("row", { name: /CI uploads/ })).not.toContainText("start runs");

  // Past the key's check, the server looks for the experiment: 404 (exit 2), not 403.
  const allowed = await versus(["run", "--experiment", "no-such-experiment", "--wait"], { url: baseURL as string, key: runKey });
  expect(allowed.code).toBe(2);
  expect(allowed.stderr).toContain('No experiment "no-such-experiment"');
  const refused = await versus(["run", "--experiment", "no-such-experiment", "--wait"], { url: baseURL as string, key: uploadKey });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("403 Forbidden");
  expect(refused.stderr).toContain("not start runs");
});
