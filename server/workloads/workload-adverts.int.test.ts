// The variant form draws a workload's settings in the order its agent wrote them ("compress"
// before "level"): that order must survive being stored, though PostgreSQL's jsonb keeps an
// object's keys sorted by length.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { agentApi, projectForAgents, registeredAgent, type JobsProject } from "~/test/agent-protocol";
import type { TestProject } from "~/test/project-members";

afterAll(() => db.$disconnect());

let project: TestProject;
let jobs: JobsProject;

beforeAll(async () => {
  ({ project, jobs } = await projectForAgents(db, "workload-adverts"));
});

const settingsSchema = (keys: string[]) => ({
  type: "object",
  properties: Object.fromEntries(keys.map((key) => [key, { type: "integer" }])),
  additionalProperties: false,
});
const propertyOrder = async () => {
  const [gzip] = await project.owner.caller.agent.workloads({ projectSlug: project.slug });
  return gzip?.settingsSchema;
};

it("keeps the order of a workload's settings from register and from a heartbeat, and nothing else changes", async () => {
  const agent = await registeredAgent(jobs, {
    workloads: [{ name: "gzip", settingsSchema: settingsSchema(["sizeBytes", "compress", "level", "iterations", "seed"]) }],
  });
  expect(await propertyOrder()).toEqual(settingsSchema(["sizeBytes", "compress", "level", "iterations", "seed"]));
  expect(Object.keys((await propertyOrder())?.properties as object)).toEqual(["sizeBytes", "compress", "level", "iterations", "seed"]);

  const reply = await agentApi.heartbeat(agent.credential, {
    workloads: [{ name: "gzip", settingsSchema: settingsSchema(["warmupIterations", "seed", "level"]) }],
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(Object.keys((await propertyOrder())?.properties as object)).toEqual(["warmupIterations", "seed", "level"]);
  expect(await propertyOrder()).toEqual(settingsSchema(["warmupIterations", "seed", "level"]));
});

it("keeps the order of a nested object's settings too (http selfTarget: responseBytes before delayMs)", async () => {
  const selfTarget = { type: "object", properties: { responseBytes: { type: "integer" }, delayMs: { type: "number" } } };
  await registeredAgent(jobs, { workloads: [{ name: "gzip", settingsSchema: { type: "object", properties: { url: { type: "string" }, selfTarget } } }] });
  const nested = ((await propertyOrder())?.properties as Record<string, { properties: object }>).selfTarget?.properties ?? {};
  expect(Object.keys(nested)).toEqual(["responseBytes", "delayMs"]);
  expect(await propertyOrder()).toEqual({ type: "object", properties: { url: { type: "string" }, selfTarget } });
});
