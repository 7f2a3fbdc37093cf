// Typed helpers for browser tests: unique names per test so runs never collide (documenso style).
import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";

export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Opens a page with a form and waits until React has hydrated it (its data-ready flag). */
export async function openForm(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator('form[data-ready="true"]').first()).toBeVisible();
}

/** Creates a project API key on its keys page and returns the secret (shown once). */
export async function createApiKeyViaUi(page: Page, projectSlug: string, name: string): Promise<string> {
  await page.goto(`/p/${projectSlug}/keys`);
  await expect(page.locator('form[data-ready="true"]')).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  return ((await page.getByTestId("api-key-secret").textContent()) ?? "").trim();
}

/** Creates a project through the home page form and waits for its (empty) experiments page. */
export async function createProjectViaUi(page: Page, name: string): Promise<string> {
  await openForm(page, "/");
  const form = page.getByRole("form", { name: "New project" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const slug = new URL(page.url()).pathname.split("/")[2];
  if (!slug) throw new Error(`unexpected project URL ${page.url()}`);
  return slug;
}

export interface MetricRow {
  key: string;
  unit: string;
  direction?: "lower is better" | "higher is better";
}

/** Fills metric row `index` (adding the row first). */
export async function addMetric(page: Page, index: number, metric: MetricRow) {
  await page.getByRole("button", { name: "Add metric" }).click();
  await page.locator(`[id="metrics.${index}.key"]`).fill(metric.key);
  await page.locator(`[id="metrics.${index}.unit"]`).fill(metric.unit);
  if (metric.direction) await page.locator(`[id="metrics.${index}.direction"]`).selectOption({ label: metric.direction });
}

/**
 * Full-page screenshots at 1280 and 390 px for a person to look at, when SHOTS_DIR is set (not part
 * of what a test asserts). `focus` is scrolled into view at each width: a long dialog scrolls
 * inside itself, which a full-page screenshot does not.
 */
export async function shot(page: Page, name: string, focus?: Locator) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  const size = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

/** The experiment page's table of each run's results for one metric, picked in the results card. */
export async function runsOf(page: Page, metric: string): Promise<Locator> {
  const card = page.getByRole("region", { name: "Results per run" });
  const picker = card.getByRole("group", { name: "Metric of the results" });
  // One metric has no picker; otherwise the button shows its table (and is pressed).
  if (await picker.isVisible()) {
    const button = picker.getByRole("button", { name: metric, exact: true });
    await button.click();
    await expect(button).toHaveAttribute("aria-pressed", "true");
  }
  return card.getByRole("table", { name: `Runs of ${metric}`, exact: true });
}
