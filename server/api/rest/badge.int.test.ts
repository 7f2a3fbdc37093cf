// The status badge through its route handler on the integration database: valid SVG (parsed as
// XML) with the latest commit's median and verdict, the right Content-Type and caching, and who
// may see it (an API key, or a live share link's token of the same experiment; nothing else).
import crypto from "node:crypto";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { around, METRIC, sha, uploadCommits } from "~/test/commit-history";

const { GET } = await import("~/app/api/v1/experiments/[slugOrId]/badge/[metric]/route");
const { db } = await import("~/server/db/client");
const { createApiKey } = await import("~/server/projects/api-keys");
const { createProject } = await import("~/server/projects/projects");
const { createShareLink, revokeShareLink } = await import("~/server/reports/share-links");

const suffix = () => crypto.randomBytes(4).toString("hex");
let project: { id: string; slug: string };
let apiKey: string;
let userId: string;

function badge(experiment: string, file: string, init: { key?: string; query?: string } = {}) {
  const headers = new Headers(init.key ? { authorization: `Bearer ${init.key}` } : {});
  const request = new Request(`http://versus.test/api/v1/experiments/${experiment}/badge/${file}${init.query ? `?${init.query}` : ""}`, { headers });
  return GET(request, { params: Promise.resolve({ slugOrId: experiment, metric: file }) });
}

/** The SVG's visible text (badge-maker writes each text twice: a shadow and the text). */
async function svgOf(response: Response) {
  const text = await response.text();
  expect(XMLValidator.validate(text)).toBe(true);
  const svg = new XMLParser({ ignoreAttributes: false }).parse(text) as { svg: { "@_xmlns": string; title: string } };
  expect(svg.svg["@_xmlns"]).toBe("http://www.w3.org/2000/svg");
  return { text, title: svg.svg.title };
}

beforeAll(async () => {
  const slug = `badge-${suffix()}`;
  project = await createProject(db, { name: slug, slug, description: "" });
  apiKey = (await createApiKey(db, slug, "badge")).secret;
  userId = (await db.user.create({ data: { email: `badge-${suffix()}@example.test` } })).id;
});

afterAll(async () => {
  await db.$disconnect();
});

describe("GET /api/v1/experiments/{slugOrId}/badge/{metric}.svg", () => {
  it("with an API key: valid SVG of the latest commit's median and its verdict against the commits before it", async () => {
    const experiment = `worse-${suffix()}`;
    await uploadCommits(db, project, experiment, [
      ...Array.from({ length: 5 }, () => ({ sha: sha(), branch: "main", values: around(100) })),
      { sha: sha(), branch: "main", values: around(112) },
    ]);
    const response = await badge(experiment, `${METRIC}.svg`, { key: apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("private, max-age=60");
    const { text, title } = await svgOf(response);
    expect(title).toMatch(/^latency_ms: 112(\.\d+)? ms \+\d+\.\d\d% worse$/);
    expect(text).toMatch(/<rect x="\d+" width="\d+" height="20" fill="#dd4343"\/>/); // badge-maker's red
  });

  it("an improvement is green, and a branch can be chosen", async () => {
    const experiment = `better-${suffix()}`;
    await uploadCommits(db, project, experiment, [
      ...Array.from({ length: 5 }, () => ({ sha: sha(), branch: "main", values: around(100) })),
      { sha: sha(), branch: "main", values: around(80) },
      { sha: sha(), branch: "release", values: around(100) },
    ]);
    const main = await svgOf(await badge(experiment, `${METRIC}.svg`, { key: apiKey, query: "branch=main" }));
    expect(main.title).toMatch(/^latency_ms: 80(\.\d+)? ms −\d+\.\d\d% better$/);
    expect(main.text).toMatch(/<rect x="\d+" width="\d+" height="20" fill="#4b0"\/>/); // badge-maker's brightgreen
    // The newest run is on "release", which has a single commit: nothing to compare with.
    const latest = await svgOf(await badge(experiment, `${METRIC}.svg`, { key: apiKey }));
    expect(latest.title).toMatch(/^latency_ms: 100(\.\d+)? ms$/);
  });

  it("no runs with a commit yet: a grey badge saying so", async () => {
    const experiment = `empty-${suffix()}`;
    await uploadCommits(db, project, experiment, []);
    await db.experiment.create({
      data: {
        projectId: project.id,
        slug: experiment,
        title: experiment,
        metrics: { create: [{ key: METRIC, unit: "ms", direction: "lower_is_better" }] },
        variants: { create: [{ name: "main", isBaseline: true }] },
      },
    });
    const { title } = await svgOf(await badge(experiment, `${METRIC}.svg`, { key: apiKey }));
    expect(title).toBe("latency_ms: no runs with a commit");
  });

  it("through a live share link's token, without a key: public, cached 5 minutes", async () => {
    const experiment = `shared-${suffix()}`;
    await uploadCommits(
      db,
      project,
      experiment,
      Array.from({ length: 6 }, () => ({ sha: sha(), branch: "main", values: around(50) })),
    );
    const link = await createShareLink(db, { projectId: project.id }, userId, { experimentSlug: experiment, mode: "live", expiresAt: null });
    const response = await badge(experiment, `${METRIC}.svg`, { query: `share=${link.token}` });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=60");
    expect((await svgOf(response)).title).toMatch(/^latency_ms: 50(\.\d+)? ms ±?[+−]?\d+\.\d\d% no change$/);

    // The token opens this experiment only.
    const other = `other-${suffix()}`;
    await uploadCommits(db, project, other, [{ sha: sha(), branch: "main", values: around(50) }]);
    const elsewhere = await badge(other, `${METRIC}.svg`, { query: `share=${link.token}` });
    expect(elsewhere.status).toBe(404);

    // A snapshot link freezes results: it opens no badge. Nor does a revoked link.
    const snapshot = await createShareLink(db, { projectId: project.id }, userId, { experimentSlug: experiment, mode: "snapshot", expiresAt: null });
    expect((await badge(experiment, `${METRIC}.svg`, { query: `share=${snapshot.token}` })).status).toBe(404);
    await revokeShareLink(db, { projectId: project.id }, link.id);
    const revoked = await badge(experiment, `${METRIC}.svg`, { query: `share=${link.token}` });
    expect(revoked.status).toBe(404);
    expect(((await revoked.json()) as { error: { message: string } }).error.message).toContain("No live share link");
  });

  it("refuses: no key and no token (401), unknown metric (404), a name without .svg (400)", async () => {
    const experiment = `refused-${suffix()}`;
    await uploadCommits(db, project, experiment, [{ sha: sha(), branch: "main", values: around(10) }]);
    const anonymous = await badge(experiment, `${METRIC}.svg`);
    expect(anonymous.status).toBe(401);
    const unknown = await badge(experiment, "nope.svg", { key: apiKey });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain(
      `No metric "nope" in experiment "${experiment}"; its metrics are "${METRIC}"`,
    );
    const png = await badge(experiment, `${METRIC}.png`, { key: apiKey });
    expect(png.status).toBe(400);
    expect(((await png.json()) as { error: { details: { fields: { path: string[] }[] } } }).error.details.fields[0]?.path).toEqual(["metric"]);
  });
});
