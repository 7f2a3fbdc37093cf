// Alerts and badges in a real browser: a member adds a % bound rule on the experiment page, CI
// uploads a commit that breaks it, and the alert shows on the project page, where it is
// acknowledged; a live share link's token opens the metric's status badge without a session,
// and the badge is valid SVG.
import { expect, test } from "@playwright/test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { createApiKeyViaUi, createProjectViaUi, uniqueSuffix } from "./helpers";

const EXPERIMENT = "gzip-history";

/** One commit's 4 runs (enough for the badge's Mann-Whitney verdict) on main, uploaded as CI would, one hour after the previous commit. */
function commitRuns(index: number, level: number) {
  const gitCommit = `${index.toString(16).padStart(4, "0")}${"c0ffee".repeat(6)}`;
  return [0, 1, 2, 3].map((r) => ({
    variant: "gzip",
    gitCommit,
    gitBranch: "main",
    gitCommitTime: new Date(Date.UTC(2026, 0, 1, index)).toISOString(),
    metrics: [{ key: "compress_ms", unit: "ms", direction: "lower_is_better", summary: { n: 100, mean: level + r * 0.2 } }],
  }));
}

test("a broken % bound opens an alert on the project page; a live share link opens the badge", async ({ page, browser, baseURL }) => {
  const projectSlug = await createProjectViaUi(page, `Alerts ${uniqueSuffix()}`);
  const key = await createApiKeyViaUi(page, projectSlug, "ci");
  const upload = async (runs: object[]) => {
    const response = await fetch(`${baseURL}/api/v1/results`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ experiment: EXPERIMENT, experimentTitle: "Gzip over commits", create: true, runs }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
  };
  await upload([0, 1, 2, 3].flatMap((i) => commitRuns(i, 100)));

  // The rule, added on the experiment page.
  await page.goto(`/p/${projectSlug}/e/${EXPERIMENT}`);
  const form = page.locator('form[aria-label="New alert rule"][data-ready="true"]');
  await expect(form).toBeVisible();
  await form.getByLabel("Kind").selectOption({ label: "% bound" });
  await form.getByLabel("Bound (%)").fill("5");
  await form.getByLabel("Earlier commits").fill("3");
  await form.getByRole("button", { name: "Add rule" }).click();
  const rule = page.getByTestId("alert-rule");
  await expect(rule).toHaveCount(1);
  await expect(rule).toContainText("worse by > 5% vs the 3 commits before");
  await expect(rule).toContainText("0 alerts");
  await expect(page.getByTestId("badge-markdown").first()).toHaveText(
    `[![compress_ms](${baseURL}/api/v1/experiments/${EXPERIMENT}/badge/compress_ms.svg?share=<token>)](${baseURL}/s/<token>)`,
  );
  await page.screenshot({ path: "test-results/alerts-experiment-page.png", fullPage: true });

  // CI uploads a commit 12% slower. The rule is evaluated in the background after the upload.
  await upload(commitRuns(4, 112));
  await expect(async () => {
    await page.goto(`/p/${projectSlug}`);
    await expect(page.getByRole("heading", { name: /Open alerts/ })).toBeVisible({ timeout: 1_000 });
  }).toPass();
  const alert = page.getByTestId("alert-row");
  await expect(alert).toHaveCount(1);
  await expect(alert).toHaveAttribute("data-status", "open");
  await expect(alert).toContainText(/Gzip over commits: compress_ms on main \(gzip\): 112\.3 ms at 0004c0ffeec0 is \+11\.96% against 100\.3 ms/);
  await page.screenshot({ path: "test-results/alerts-project-page.png", fullPage: true });
  await alert.getByRole("button", { name: "Acknowledge" }).click();
  await expect(alert).toHaveAttribute("data-status", "acknowledged");

  // The Alerts page lists it with its review.
  await page.goto(`/p/${projectSlug}/alerts`);
  await expect(page.getByTestId("alert-row")).toContainText("acknowledged");
  await page.getByTestId("alert-row").getByRole("button", { name: "Resolve" }).click();
  await expect(page.getByTestId("alert-row")).toHaveCount(0);
  await page.getByRole("link", { name: "Resolved" }).click();
  await expect(page.getByTestId("alert-row")).toHaveAttribute("data-status", "resolved");
  await page.screenshot({ path: "test-results/alerts-page.png", fullPage: true });

  // A live share link: its dialog lists the badge Markdown with the token.
  await page.goto(`/p/${projectSlug}/e/${EXPERIMENT}`);
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: "Share “Gzip over commits”" });
  await expect(dialog.locator('form[aria-label="New share link"][data-ready="true"]')).toBeVisible();
  await dialog.getByRole("button", { name: "Create link" }).click();
  const shareUrl = ((await dialog.getByTestId("share-url").textContent()) ?? "").trim();
  const token = shareUrl.split("/s/")[1] ?? "";
  const badgeUrl = `${baseURL}/api/v1/experiments/${EXPERIMENT}/badge/compress_ms.svg?share=${token}`;
  await expect(dialog.getByRole("status", { name: "Link created" })).toContainText(`[![compress_ms](${badgeUrl})](${shareUrl})`);
  await page.screenshot({ path: "test-results/alerts-share-dialog.png" });

  // Anyone with the token gets the badge, without a session: valid SVG, the latest commit's verdict.
  const anonymous = await browser.newContext();
  const response = await anonymous.request.get(badgeUrl);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
  expect(response.headers()["cache-control"]).toBe("public, max-age=300, stale-while-revalidate=60");
  const svg = await response.text();
  expect(XMLValidator.validate(svg)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg) as { svg: { "@_xmlns": string; title: string } };
  expect(parsed.svg["@_xmlns"]).toBe("http://www.w3.org/2000/svg");
  expect(parsed.svg.title).toMatch(/^compress_ms: 112\.3 ms \+11\.96% worse$/);
  // Without the token it is refused.
  expect((await anonymous.request.get(badgeUrl.replace(/\?share=.*$/, ""))).status()).toBe(401);
  await anonymous.close();
});
