// Client navigations show progress while the next page loads, and a page that does not exist
// still answers HTTP 404 (the reason there is no root loading.tsx). The slow page is made slow by
// holding its data until the bar has been seen, not by a clock.
import { expect, test } from "@playwright/test";
import { createProjectViaUi, uniqueSuffix } from "./helpers";

test("a slow client navigation shows a progress bar until the page arrives; a missing page answers 404", async ({ page }) => {
  const name = `Navigation ${uniqueSuffix()}`;
  const projectSlug = await createProjectViaUi(page, name);
  const progress = page.getByRole("progressbar", { name: "Loading the page" });
  await expect(progress).toHaveCount(0);

  // Every request for the Members page's data (prefetches included) waits for release().
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(
    (url) => url.pathname === `/p/${projectSlug}/members`,
    async (route) => {
      if (route.request().headers()["rsc"]) {
        held += 1;
        await released;
      }
      await route.continue();
    },
  );

  await page.getByRole("link", { name: "Members", exact: true }).click();
  await expect(progress).toBeVisible();
  // The old page stays while the new one loads.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect.poll(() => held).toBeGreaterThan(0);

  release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Members");
  await expect(progress).toHaveCount(0);
  expect(new URL(page.url()).pathname).toBe(`/p/${projectSlug}/members`);

  // Going back to a page already seen leaves no bar behind.
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(progress).toHaveCount(0);

  const missing = await page.goto(`/p/no-such-project-${uniqueSuffix()}/members`);
  expect(missing?.status()).toBe(404);
});
