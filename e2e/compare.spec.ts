// The Compare page opens on two different experiments, and a side's commit picker shows each
// commit's date and message and narrows a long history by part of a SHA or message.
import { expect, test } from "@playwright/test";

test("Compare opens on two different experiments; a commit is found by its message or SHA and compared", async ({ page }) => {
  await page.goto("/p/examples/compare");
  const form = page.locator('form[aria-label="Pick runs to compare"][data-ready="true"]');
  await expect(form).toBeVisible();
  const before = form.locator("#before");
  const after = form.locator("#after");
  const [beforeSlug, afterSlug] = [await before.inputValue(), await after.inputValue()];
  expect(beforeSlug).not.toBe("");
  expect(afterSlug).not.toBe("");
  expect(afterSlug).not.toBe(beforeSlug);

  // The history example's 300 commits, each with its date and message.
  await before.selectOption("gzip-history");
  const commit = form.locator("#beforeCommit");
  await expect(commit.locator("option")).toHaveCount(301);
  await expect(commit.locator("option", { hasText: "Raise gzip level from 6 to 9" })).toHaveText(
    /^[0-9a-f]{10} · 2026-\d\d-\d\d · Raise gzip level from 6 to 9 for smaller artifacts · main \(3 runs\)$/,
  );

  // By message: one commit left.
  const search = form.getByLabel("Find a commit").first();
  await search.fill("deflate state");
  await expect(commit.locator("option")).toHaveCount(2);
  await expect(form.getByText("1 commit of 300 match")).toBeVisible();
  const label = (await commit.locator("option").nth(1).textContent()) ?? "";
  expect(label).toContain("Reuse the deflate state between payloads");
  const sha = (await commit.locator("option").nth(1).getAttribute("value")) ?? "";
  expect(sha).toMatch(/^[0-9a-f]{40}$/);

  // By part of its SHA, in capitals.
  await search.fill(sha.slice(0, 7).toUpperCase());
  await expect(commit.locator("option").nth(1)).toHaveAttribute("value", sha);
  await commit.selectOption(sha);

  // After: the same experiment, all commits; the comparison answers for the chosen commit.
  await after.selectOption("gzip-history");
  await form.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(new RegExp(`beforeCommit=${sha}`));
  const result = page.getByRole("region", { name: /^Result/ });
  await expect(result.locator("dd").first()).toContainText(`${sha.slice(0, 12)} — 3 runs`);
  await expect(result.locator("dd").nth(1)).toContainText("all commits — 900 runs");
});
