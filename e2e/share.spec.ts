// Share links in a real browser: the owner makes a link in the experiment page's Share dialog;
// a browser with no session opens it and sees the verdict and the charts (and the link's preview
// metadata and image), but nothing that leads into the project; the owner revokes it and the
// same URL becomes a 404 that names nothing.
import { expect, test, type Page } from "@playwright/test";
import { lognormalSamples } from "../server/stats/prng";
import { KAFKA_VARIANTS, SEND_TIME_MS } from "../test/fixtures/kafka-published-figures";
import { createApiKeyViaUi, createProjectViaUi, uniqueSuffix } from "./helpers";

const TITLE = "Kafka producer serializers";
const SLACKBOT = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)";

/** docs/examples.md case 5's send times, plus per-message latency samples (charts: percentiles, distribution). */
function kafkaRuns() {
  return [0, 1, 2, 3, 4].flatMap((i) =>
    KAFKA_VARIANTS.map((variant, v) => ({
      variant,
      repetition: i,
      gitCommit: "4f2a9c1e",
      metrics: [
        { key: "send_time_ms", unit: "ms", direction: "lower_is_better", summary: { n: 1_000_000, mean: SEND_TIME_MS[variant][i] } },
        { key: "latency_us", unit: "µs", direction: "lower_is_better", samples: lognormalSamples(300, { median: 40 + v, sigma: 0.3, seed: 7 + i * 3 + v }) },
      ],
    })),
  );
}

/** The Share dialog, opened from the experiment page. */
async function openShareDialog(page: Page) {
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${TITLE}”` });
  await expect(dialog.locator('form[aria-label="New share link"][data-ready="true"]')).toBeVisible();
  return dialog;
}

test("make a link, open it signed out, revoke it", async ({ page, browser, baseURL }) => {
  const projectSlug = await createProjectViaUi(page, `Share ${uniqueSuffix()}`);
  const key = await createApiKeyViaUi(page, projectSlug, "share test");
  const uploaded = await fetch(`${baseURL}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ experiment: "kafka-serializers", experimentTitle: TITLE, create: true, runs: kafkaRuns() }),
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  const runIds = ((await uploaded.json()) as { runs: { id: string }[] }).runs.map((run) => run.id);
  expect(runIds).toHaveLength(15);

  // The owner makes a live link that expires in 7 days.
  await page.goto(`/p/${projectSlug}/e/kafka-serializers`);
  let dialog = await openShareDialog(page);
  await expect(dialog.getByLabel("Compared against")).toHaveValue("SPRING_JSON");
  await dialog.getByLabel("Expires").selectOption({ label: "In 7 days" });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const url = ((await dialog.getByTestId("share-url").textContent()) ?? "").trim();
  expect(url).toMatch(new RegExp(`^${baseURL}/s/vsh_[A-Za-z0-9_-]{43}$`));
  const links = dialog.getByRole("list", { name: "Share links" }).getByRole("listitem");
  await expect(links).toHaveCount(1);
  await expect(links.first()).toContainText("active");
  await expect(links.first()).toContainText("0 views");

  // Someone without an account opens it.
  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] }, reducedMotion: "reduce" });
  const reader = await stranger.newPage();
  const response = await reader.goto(url);
  expect(response?.status()).toBe(200);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(TITLE);
  await expect(reader.getByText("live", { exact: true })).toBeVisible();
  const table = reader.getByRole("table", { name: "Comparison of send_time_ms" });
  const kotlinx = table.getByRole("row").filter({ hasText: "KOTLINX_JSON" });
  await expect(kotlinx).toContainText("−4.37%");
  await expect(kotlinx).toContainText("better");
  const bars = reader.locator('figure[data-chart="send_time_ms/bars"]');
  await expect(bars.locator("svg.recharts-surface")).toHaveCount(1);
  await expect(bars.locator(".recharts-bar-rectangle")).toHaveCount(3);
  // Read-only: no way into the project, no account controls, no baseline switching.
  await expect(reader.locator('a[href^="/p/"]')).toHaveCount(0);
  await expect(reader.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expect(reader.getByRole("navigation", { name: "Baseline" })).toHaveCount(0);
  await expect(reader.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  await expect(reader.getByRole("button", { name: "Share" })).toHaveCount(0);

  // The link's preview: title, verdict, image; never indexed, never passed on as a referrer.
  const meta = (selector: string) => reader.locator(`meta[${selector}]`).getAttribute("content");
  expect(await meta('property="og:title"')).toBe(`${TITLE} — Versus`);
  expect(await meta('name="twitter:card"')).toBe("summary_large_image");
  expect(await meta('name="description"')).toContain("KOTLINX_JSON −4.37% send_time_ms vs SPRING_JSON (better, p 0.032)");
  expect(await meta('name="robots"')).toContain("noindex");
  expect(await meta('name="referrer"')).toBe("no-referrer");
  const image = await meta('property="og:image"');
  expect(image).toMatch(new RegExp(`^${url}/opengraph-image`));
  const png = await stranger.request.get(image!);
  expect(png.status()).toBe(200);
  expect(png.headers()["content-type"]).toBe("image/png");

  // One visit is one view (the preview image is not one).
  await page.getByRole("button", { name: "Close" }).click();
  dialog = await openShareDialog(page);
  await expect(links.first()).toContainText("1 view,");

  // What the page sends holds no run ids and nothing that links into the project. A link
  // unfurler (no JavaScript) gets the preview tags in the <head>.
  const html = await (await stranger.request.get(url)).text();
  expect(html).toContain(TITLE);
  for (const id of [...runIds, projectSlug, "/p/", "4f2a9c1e"]) expect(html).not.toContain(id);
  const unfurled = await stranger.request.get(url, { headers: { "user-agent": SLACKBOT } });
  expect(unfurled.status()).toBe(200);
  expect((await unfurled.text()).split("</head>")[0]).toContain(`<meta property="og:title" content="${TITLE} — Versus"/>`);

  // The owner revokes it; the reader's next visit is a plain 404.
  page.once("dialog", (confirm) => void confirm.accept());
  await links
    .first()
    .getByRole("button", { name: /^Revoke/ })
    .click();
  await expect(links.first()).toContainText("revoked");
  const gone = await reader.reload();
  expect(gone?.status()).toBe(404);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText("Link not available");
  await expect(reader.locator('meta[name="robots"]').first()).toHaveAttribute("content", /noindex/);
  await expect(reader.locator("body")).not.toContainText(TITLE);
  await expect(reader.locator("body")).not.toContainText("KOTLINX_JSON");
  expect(await reader.title()).not.toContain(TITLE);
  expect((await stranger.request.get(image!)).status()).toBe(404);
  // An unfurler gets the same 404: nothing of the experiment, not to be indexed.
  const unfurledRevoked = await stranger.request.get(url, { headers: { "user-agent": SLACKBOT } });
  expect(unfurledRevoked.status()).toBe(404);
  const revoked = await unfurledRevoked.text();
  expect(revoked).toContain("Link not available");
  expect(revoked).toMatch(/<meta name="robots" content="noindex"\/>/);
  for (const leak of [TITLE, "KOTLINX_JSON", "send_time_ms"]) expect(revoked).not.toContain(leak);
  await stranger.close();
});
