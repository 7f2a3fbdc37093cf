// A metric's history in a real browser: 120 commits (three runs each, +12% from commit 70)
// uploaded through the REST API with a key made in the UI. The experiment page links the history;
// the chart draws its band, dots and the change point's labelled marker; dragging across the
// chart zooms and the brush pans (the visible range changes), reset restores it; hovering a
// commit shows its message, clicking pins it with a link into the repository set in the project's
// settings; acknowledging the change point sticks across a reload. The project's History page
// lists the open change point until then.
import { expect, test, type Page } from "@playwright/test";
import { createApiKeyViaUi, createProjectViaUi, openForm, uniqueSuffix } from "./helpers";
import { mulberry32, standardNormal } from "../server/stats/prng";

const COMMITS = 120;
const SHIFT_AT = 70;
const sha = (i: number) => (0x10000000 + i * 7919).toString(16).padStart(8, "0").repeat(5);

function historyRuns() {
  const random = mulberry32(21);
  const runs = [];
  for (let i = 0; i < COMMITS; i++) {
    for (let r = 0; r < 3; r++) {
      runs.push({
        variant: "main",
        gitCommit: sha(i),
        gitBranch: "main",
        gitCommitMessage: i === SHIFT_AT ? "Switch JSON encoder" : `Routine change ${i}`,
        gitCommitTime: new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString(),
        metrics: [
          {
            key: "latency",
            unit: "ms",
            direction: "lower_is_better",
            summary: { n: 100, mean: (i < SHIFT_AT ? 20 : 22.4) * (1 + 0.015 * standardNormal(random)) },
          },
        ],
      });
    }
  }
  return runs;
}

const range = (page: Page) => page.getByTestId("history-range");

test("history: renders, zooms and pans, marks the change point, links commits, acknowledges", async ({ page, baseURL }) => {
  const projectSlug = await createProjectViaUi(page, `History ${uniqueSuffix()}`);
  const key = await createApiKeyViaUi(page, projectSlug, "history test");
  const uploaded = await fetch(`${baseURL}/api/v1/results`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ experiment: "api-latency", experimentTitle: "API latency", create: true, runs: historyRuns() }),
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);

  // The repository, so commits link to it.
  await openForm(page, `/p/${projectSlug}/settings`);
  const repository = page.getByRole("form", { name: "Repository" });
  await repository.getByLabel("Repository URL").fill("https://github.com/acme/api/");
  await repository.getByRole("button", { name: "Save" }).click();
  await expect(repository.getByRole("status")).toHaveText("Saved");

  // From the experiment page to its history.
  await page.goto(`/p/${projectSlug}/e/api-latency`);
  await page.getByRole("link", { name: "History", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/p/${projectSlug}/e/api-latency/history`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("History: API latency");

  // The change point is found in the background right after the upload: reload until it shows.
  const rows = page.getByTestId("change-point-row");
  await expect(async () => {
    await page.reload();
    await expect(rows).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(rows.first()).toContainText("regression");
  await expect(rows.first()).toContainText("+12");

  const figure = page.locator('figure[data-chart="latency/history"]');
  const main = figure.getByTestId("history-main");
  await expect(main.locator("svg.recharts-surface")).toHaveCount(1);
  // Band, the dots of every run, and the labelled marker.
  await expect(main.locator(".recharts-area-area")).toHaveCount(1);
  await expect(main.locator(".recharts-scatter-symbol")).toHaveCount(COMMITS * 3);
  await expect(main.locator(".change-point-marker")).toHaveCount(1);
  await expect(main.locator("svg.recharts-surface")).toContainText(/\+1[12]\.\d+% regression/);
  await expect(range(page)).toContainText(`All ${COMMITS} commits, 2026-01-01 – 2026-04-30`);

  // Drag across the middle of the chart: zoomed in to fewer commits.
  const plot = main.locator(".recharts-cartesian-grid");
  const box = await plot.boundingBox();
  if (!box) throw new Error("the chart's plot area is not drawn");
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.45, box.y + box.height / 2, { steps: 8 });
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(range(page)).toContainText(/Showing 2026-\d\d-\d\d – 2026-\d\d-\d\d: \d+ of 120 commits/);
  const zoomed = Number((await range(page).textContent())?.match(/: (\d+) of/)?.[1]);
  expect(zoomed).toBeGreaterThan(10);
  expect(zoomed).toBeLessThan(70);
  await expect(main.locator(".recharts-scatter-symbol")).toHaveCount(zoomed * 3);

  await page.getByRole("button", { name: "Reset zoom" }).click();
  await expect(range(page)).toContainText(`All ${COMMITS} commits`);

  // The brush pans/zooms too: drag its left handle to the right.
  await figure.getByTestId("history-brush").scrollIntoViewIfNeeded();
  const traveller = figure.getByTestId("history-brush").locator(".recharts-brush-traveller").first();
  const handle = await traveller.boundingBox();
  if (!handle) throw new Error("the brush is not drawn");
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + box.width * 0.5, handle.y + handle.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(range(page)).toContainText(/Showing 2026-0[2-4]-\d\d – 2026-04-30: \d+ of 120 commits/);
  await page.getByRole("button", { name: "Reset zoom" }).click();
  await expect(range(page)).toContainText(`All ${COMMITS} commits`);

  // Hover a commit: its message; click: pinned, with the link into the repository. The reset
  // redraws the chart: wait for its dots before measuring one (on a busy machine they came late).
  await main.scrollIntoViewIfNeeded();
  await expect(main.locator(".recharts-line-dots circle").first()).toBeVisible();
  const firstDot = await main.locator(".recharts-line-dots circle").first().boundingBox();
  if (!firstDot) throw new Error("the first commit's dot is not drawn");
  await page.mouse.move(firstDot.x + firstDot.width / 2, firstDot.y + firstDot.height / 2);
  await expect(figure.locator(".chart-tooltip")).toContainText("Routine change 0");
  await page.mouse.click(firstDot.x + firstDot.width / 2, firstDot.y + firstDot.height / 2);
  const pinned = page.getByTestId("pinned-commit");
  await expect(pinned).toContainText("Routine change 0");
  await expect(pinned.getByRole("link", { name: "View commit" })).toHaveAttribute("href", `https://github.com/acme/api/commit/${sha(0)}`);

  // The project's History page lists the open change point.
  await page.goto(`/p/${projectSlug}/history`);
  await expect(page.getByRole("table", { name: "Open change points" })).toContainText("api-latency");
  await page.getByRole("table", { name: "Open change points" }).getByRole("link", { name: "latency", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("History: API latency");

  // Acknowledge: the marker turns dashed, the row says who; it sticks.
  await rows.first().getByRole("button", { name: "Acknowledge" }).click();
  await expect(rows.first()).toHaveAttribute("data-status", "acknowledged");
  await expect(rows.first()).toContainText("acknowledged by Olivia Owner");
  await page.reload();
  await expect(rows.first()).toHaveAttribute("data-status", "acknowledged");
  await expect(rows.first().getByRole("button", { name: "Reopen" })).toBeVisible();
  await page.goto(`/p/${projectSlug}/history`);
  await expect(page.getByText("None open")).toBeVisible();
});
