// Security headers on what the production server answers: pages carry a per-request nonce
// Content-Security-Policy (no 'unsafe-eval', no framing), and API answers — Next.js's and those
// of the server in front of it — error answers and downloads a policy that allows nothing; every answer says nosniff and a Referrer-Policy. The
// pages people use most — an experiment with its charts, the Share dialog, a shared link opened
// signed out, sign-in — must run under that policy without a single violation.
import { expect, test, type APIResponse, type BrowserContext, type Page } from "@playwright/test";

const EXPERIMENT = "/p/examples/e/kafka-producer-serializers";

function expectCommonHeaders(response: APIResponse) {
  const headers = response.headers();
  expect(headers["x-content-type-options"], response.url()).toBe("nosniff");
  expect(headers["referrer-policy"], response.url()).toBe("same-origin");
  // No framework or server version is announced.
  expect(headers["x-powered-by"], response.url()).toBeUndefined();
  expect(headers["server"], response.url()).toBeUndefined();
  // Served over plain http here: no HSTS (it would be a promise the server cannot keep).
  expect(headers["strict-transport-security"], response.url()).toBeUndefined();
}

function directives(response: APIResponse): Map<string, string> {
  const csp = response.headers()["content-security-policy"] ?? "";
  return new Map(
    csp
      .split(";")
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => [part.split(/\s+/)[0]!, part] as const),
  );
}

test("pages carry a nonce policy; API answers, error answers and downloads one that allows nothing", async ({ page }) => {
  const request = page.request;
  for (const path of ["/", EXPERIMENT, "/no-such-page"]) {
    const response = await request.get(path);
    expectCommonHeaders(response);
    const csp = directives(response);
    expect(response.headers()["content-security-policy"], path).not.toContain("unsafe-eval");
    // Pages are rendered for the signed-in person: the browser's cache keeps none of them.
    expect(response.headers()["cache-control"], path).toContain("no-store");
    expect(csp.get("script-src"), path).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'$/);
    expect(csp.get("frame-ancestors"), path).toBe("frame-ancestors 'none'");
    expect(csp.get("object-src"), path).toBe("object-src 'none'");
    // The nonce is new each time, and it is the one Next.js put on its own scripts.
    const html = await response.text();
    const nonce = /'nonce-([^']+)'/.exec(csp.get("script-src")!)![1];
    expect(html).toContain(`nonce="${nonce}"`);
    expect(directives(await request.get(path)).get("script-src")).not.toContain(nonce);
  }

  const api = [
    await request.get("/api/health"),
    await request.get("/api/v1/experiments/nope/comparison"), // 401: no API key
    await request.post("/api/v1/results", { data: "{" }), // 401 before anything is read
    await request.get("/api/v1/no-such-route"),
    await request.get(`${EXPERIMENT}/export/runs.csv`),
    // Answered by the server in front of Next.js (scripts/serve.ts): an agent route it serves
    // itself, and a method Next.js cannot route.
    await request.post("/api/v1/jobs/claim"), // 401: no agent credential
    await request.fetch("/api/health", { method: "PROPFIND" }),
  ];
  expect(api.map((response) => response.status())).toEqual([200, 401, 401, 404, 200, 401, 405]);
  for (const response of api) {
    expectCommonHeaders(response);
    expect(response.headers()["content-security-policy"], response.url()).toBe("default-src 'none'; frame-ancestors 'none'");
  }
});

/** Every CSP violation any page of `context` reports, from the browser itself. */
async function recordViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeFunction("reportCspViolation", (line: string) => violations.push(line));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportCspViolation(line: string): void }).reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI} on ${location.pathname}`,
      );
    });
  });
  context.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

async function chartsDrawn(page: Page) {
  await expect(page.locator("svg.recharts-surface").first()).toBeVisible();
}

test("the experiment page, its Share dialog, a shared link and sign-in run without a violation", async ({ page, browser }) => {
  const violations = await recordViolations(page.context());
  await page.goto(EXPERIMENT);
  await chartsDrawn(page);

  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: /^Share/ });
  await expect(dialog.locator('form[aria-label="New share link"][data-ready="true"]')).toBeVisible();
  await dialog.getByRole("button", { name: "Create link" }).click();
  const url = ((await dialog.getByTestId("share-url").textContent()) ?? "").trim();
  expect(url).toContain("/s/vsh_");

  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] }, reducedMotion: "reduce" });
  const strangerViolations = await recordViolations(stranger);
  const reader = await stranger.newPage();
  await reader.goto(url);
  await chartsDrawn(reader);
  await reader.goto("/sign-in");
  await expect(reader.locator('form[data-ready="true"]')).toBeVisible();
  await stranger.close();

  expect([...violations, ...strangerViolations]).toEqual([]);
});
