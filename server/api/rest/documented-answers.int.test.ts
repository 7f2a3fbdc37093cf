// The read endpoints' answers on a real experiment with commit history, held against the schemas
// the OpenAPI document is made from: no field the document does not list (the API fuzz found
// the CI gate answering metrics[].aggregation, which its schema lacked).
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { GET as getCheck } from "~/app/api/v1/experiments/[slugOrId]/check/route";
import { GET as getComparison } from "~/app/api/v1/experiments/[slugOrId]/comparison/route";
import { GET as getHistory } from "~/app/api/v1/experiments/[slugOrId]/history/route";
import { db } from "~/server/db/client";
import { ZCheckResult } from "~/server/schemas/check";
import { ZComparison } from "~/server/schemas/comparison";
import { ZHistory } from "~/server/schemas/history";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { around, sha, uploadCommits } from "~/test/commit-history";
import { undocumentedFields } from "~/test/documented-fields";

afterAll(() => db.$disconnect());

const experiment = "documented";
const commits = Array.from({ length: 6 }, (_, i) => ({ sha: sha(), branch: "main", values: around(100 + i * 5) }));
let key: string;

beforeAll(async () => {
  const slug = `documented-${crypto.randomBytes(4).toString("hex")}`;
  const project = await createProject(db, { name: slug, slug, description: "" });
  key = (await createApiKey(db, slug, "documented answers")).secret;
  await uploadCommits(db, project, experiment, [...commits, ...commits.slice(0, 2).map((commit) => ({ ...commit, variant: "other" }))]);
});

type Route = (req: Request, context: { params: Promise<{ slugOrId: string }> }) => Promise<Response>;
const answers: [string, Route, string, z.ZodType][] = [
  ["comparison", getComparison, "", ZComparison],
  ["history", getHistory, "", ZHistory],
  ["check", getCheck, `?branch=main&commit=${commits.at(-1)?.sha}&window=3`, ZCheckResult],
];

describe("answers list only documented fields", () => {
  it.each(answers)("GET …/%s", async (name, route, query, schema) => {
    const response = await route(
      new Request(`http://test.local/api/v1/experiments/${experiment}/${name}${query}`, { headers: { authorization: `Bearer ${key}` } }),
      { params: Promise.resolve({ slugOrId: experiment }) },
    );
    const body: unknown = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(undocumentedFields(schema, body)).toEqual([]);
  });
});
