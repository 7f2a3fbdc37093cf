// docs/agent-protocol.md is what agent authors read: every JSON example in it must be what the
// server accepts (requests) or sends (replies), checked with the schemas the server uses. A
// shape renamed on one side only (a job's workload once was) fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ZAgentRegister, ZAgentRegistered, ZHeartbeat, ZHeartbeatReply } from "./agents";
import { ZClaimReply, ZCompleteRequest, ZFailRequest, ZLeaseRequest, ZReadyReply, ZReadyRequest } from "./jobs";
import { ZRunMetricInput } from "./results";
import { ZVariantConfig } from "./workload";

const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/agent-protocol.md"), "utf8");

/** The ```json blocks under the heading that starts with `heading`, in order. */
function examplesUnder(heading: string): unknown[] {
  const start = doc.indexOf(`### \`${heading}`);
  if (start < 0) throw new Error(`no section "${heading}" in docs/agent-protocol.md`);
  const end = doc.indexOf("\n### ", start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1] as string));
}

const expected: [string, z.ZodType[]][] = [
  ["POST /api/v1/agents/register", [ZAgentRegister, ZAgentRegistered]],
  ["POST /api/v1/agents/heartbeat", [ZHeartbeat, ZHeartbeatReply]],
  ["POST /api/v1/jobs/claim", [ZClaimReply]],
  ["POST /api/v1/jobs/{id}/lease", [ZLeaseRequest]],
  ["POST /api/v1/jobs/{id}/ready", [ZReadyRequest, ZReadyReply]],
  // The complete request, then a run's metric with a value (its "Summaries and values").
  ["POST /api/v1/jobs/{id}/complete", [ZCompleteRequest, ZRunMetricInput]],
  ["POST /api/v1/jobs/{id}/fail", [ZFailRequest]],
];

describe("docs/agent-protocol.md", () => {
  it.each(expected)("%s: every JSON example parses with the server's schema", (heading, schemas) => {
    const examples = examplesUnder(heading);
    expect(examples).toHaveLength(schemas.length);
    examples.forEach((example, index) => {
      const parsed = (schemas[index] as z.ZodType).safeParse(example);
      expect(parsed.success, `example ${index + 1}: ${parsed.error?.message}`).toBe(true);
    });
  });

  it("Probes: the variant config example parses with the server's schema", () => {
    const start = doc.indexOf("\n## Probes\n");
    expect(start).toBeGreaterThan(0);
    const section = doc.slice(start, doc.indexOf("\n## ", start + 1));
    const examples = [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1] as string));
    expect(examples).toHaveLength(1);
    const parsed = ZVariantConfig.safeParse(examples[0]);
    expect(parsed.success, parsed.error?.message).toBe(true);
    expect(parsed.data?.probes).toHaveLength(2);
  });
});
