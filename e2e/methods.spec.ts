// Methods against the real server (`npm start`): Next.js cannot route TRACE at all (the Fetch API
// refuses to build such a Request, so it answered a bare 500), and answers a method a route does
// not export with a bare 405. Both are the API's 405 with the route's Allow header now.
import { expect, test } from "@playwright/test";

const cases = [
  { method: "TRACE", path: "/api/health", allow: "GET, HEAD, OPTIONS" },
  { method: "TRACE", path: "/api/v1/results", allow: "OPTIONS, POST" },
  { method: "PROPFIND", path: "/api/v1/openapi.json", allow: "GET, HEAD, OPTIONS" },
  { method: "PUT", path: "/api/health", allow: "GET, HEAD, OPTIONS" },
  { method: "DELETE", path: "/api/v1/imports", allow: "OPTIONS, POST" },
];

for (const { method, path, allow } of cases) {
  test(`${method} ${path} → 405 with Allow: ${allow}`, async ({ request }) => {
    const response = await request.fetch(path, { method });
    expect(response.status()).toBe(405);
    expect(response.headers()["allow"]).toBe(allow);
    expect(await response.json()).toEqual({ error: { code: "METHOD_NOT_ALLOWED", message: `${method} is not allowed here; this route answers ${allow}` } });
  });
}

test("OPTIONS lists a route's methods; GET and HEAD still answer", async ({ request }) => {
  const options = await request.fetch("/api/v1/experiments/any/comparison", { method: "OPTIONS" });
  expect(options.status()).toBe(204);
  expect(options.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
  expect((await request.get("/api/health")).status()).toBe(200);
  expect((await request.head("/api/health")).status()).toBe(200);
});
