// Addresses no project or experiment can have — a NUL in a path segment, a segment longer than
// any slug — are pages that do not exist (404), not server errors. A download's bad parameter is
// a 400 saying which.
import { expect, test } from "@playwright/test";

const paths = ["/p/%00", "/p/a%00b/e/x", `/p/${"x".repeat(300)}`, "/p/examples/e/%00", "/p/examples/e/product-list-redis-cache/compare%00", "/s/a%00b"];

for (const path of paths) {
  test(`${path.slice(0, 48)} → 404, not 500`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
  });
}

test("the setup page with a token no link can have is no server error (set up already, it says so)", async ({ page }) => {
  const response = await page.goto("/setup/a%00b");
  expect(response?.status()).toBeLessThan(500);
  await expect(page.getByText("Versus is already set up.")).toBeVisible();
});

test("a share link's preview image for a token no link can have → 404", async ({ request }) => {
  expect((await request.get("/s/a%00b/opengraph-image")).status()).toBe(404);
});

test("a download with a NUL in ?baseline= → 400 naming the parameter", async ({ request }) => {
  const response = await request.get("/p/examples/e/product-list-redis-cache/export/summary.csv?baseline=a%00b");
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain("baseline: contains a NUL character");
});
