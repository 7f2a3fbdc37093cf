// The links the REST API returns (an upload's or import's experiment URL) must not come from
// headers any client can send. X-Forwarded-Host / X-Forwarded-Proto count only when
// VERSUS_TRUSTED_PROXIES names the proxies in front of Versus; VERSUS_PUBLIC_URL beats both.
import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as postImportRoute } from "~/app/api/v1/imports/route";
import { POST as postResultsRoute } from "~/app/api/v1/results/route";
import { db } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";

const suffix = () => crypto.randomBytes(4).toString("hex");
const FORGED = { host: "versus.test:8080", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
const SETTINGS = ["VERSUS_TRUSTED_PROXIES", "VERSUS_PUBLIC_URL"] as const;

let projectSlug: string;
let apiKey: string;

beforeAll(async () => {
  projectSlug = `fwd-${suffix()}`;
  await createProject(db, { name: projectSlug, slug: projectSlug, description: "" });
  apiKey = (await createApiKey(db, projectSlug, "forwarded headers test")).secret;
});

afterEach(() => {
  for (const name of SETTINGS) delete process.env[name];
});

afterAll(() => db.$disconnect());

/** The experiment URL each REST write returns for a request carrying `headers`. */
async function returnedUrls(headers: Record<string, string>): Promise<string[]> {
  const slug = `exp-${suffix()}`;
  const auth = { authorization: `Bearer ${apiKey}` };
  const upload = await postResultsRoute(
    new Request("http://0.0.0.0:3000/api/v1/results", {
      method: "POST",
      headers: { ...auth, ...headers, "content-type": "application/json" },
      body: JSON.stringify({
        experiment: slug,
        create: true,
        runs: [{ variant: "a", metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", samples: [1, 2, 3] }] }],
      }),
    }),
  );
  const imported = await postImportRoute(
    new Request(`http://0.0.0.0:3000/api/v1/imports?format=csv&experiment=${slug}-csv&variant=a&create=true`, {
      method: "POST",
      headers: { ...auth, ...headers, "content-type": "text/csv" },
      body: "latency (ms) ↓\n1\n2\n3\n",
    }),
  );
  const bodies = [(await upload.json()) as { experiment: { url: string } }, (await imported.json()) as { experiment: { url: string } }];
  expect([upload.status, imported.status], JSON.stringify(bodies)).toEqual([201, 201]);
  return bodies.map((body) => body.experiment.url);
}

describe("links in REST answers", () => {
  it("ignore X-Forwarded-Host and X-Forwarded-Proto when no proxy is trusted", async () => {
    const urls = await returnedUrls(FORGED);
    for (const url of urls) expect(new URL(url).origin).toBe("http://versus.test:8080");
  });

  it("follow X-Forwarded-Host and X-Forwarded-Proto when VERSUS_TRUSTED_PROXIES names the proxy", async () => {
    process.env.VERSUS_TRUSTED_PROXIES = "127.0.0.1, 10.0.0.0/8";
    const urls = await returnedUrls(FORGED);
    for (const url of urls) expect(new URL(url).origin).toBe("https://evil.example");
  });

  it("use VERSUS_PUBLIC_URL whatever the request says", async () => {
    process.env.VERSUS_PUBLIC_URL = "https://versus.example.com/";
    process.env.VERSUS_TRUSTED_PROXIES = "127.0.0.1";
    const urls = await returnedUrls(FORGED);
    for (const url of urls) expect(url).toMatch(/^https:\/\/versus\.example\.com\/p\//);
  });
});
