import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { isPageRequest, outagePage } from "./outage-page";

describe("the page answered while the database is away", () => {
  it.each([
    ["/", true],
    ["/p/examples/e/gzip?baseline=Plain", true],
    ["/sign-in?next=%2Fp%2Fx", true],
    ["/api/v1/results", false],
    ["/api/trpc/agent.list", false],
    ["/_next/static/chunks/a.js", false],
    ["/favicon.svg", false],
    ["/p/x/e/y/export/runs.csv", false],
  ])("%s is a page: %s", (url, page) => {
    expect(isPageRequest(url)).toBe(page);
  });

  it("is 503 with Retry-After, never cached, and its link opens the same page again (without the client router's marker)", () => {
    const answer = outagePage('/p/x/e/y?baseline=A"B&_rsc=1x');
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatchObject({ "Retry-After": "5", "Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8" });
    expect(answer.body).toContain(`<a class="button" href="/p/x/e/y?baseline=A%22B">Try again</a>`);
    expect(answer.body).toContain("<h1>Versus can't reach its database</h1>");
  });

  it("allows its own style and nothing else", () => {
    const { headers, body } = outagePage("/");
    const hash = /style-src '(sha256-[^']+)'/.exec(headers["Content-Security-Policy"] ?? "")?.[1];
    const style = /<style>([\s\S]*?)<\/style>/.exec(body)?.[1] ?? "";
    expect(hash).toBe(`sha256-${crypto.createHash("sha256").update(style).digest("base64")}`);
    expect(headers["Content-Security-Policy"]).toMatch(/^default-src 'none'/);
  });
});
