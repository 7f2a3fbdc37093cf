// docs/agent-protocol.md's error examples are error bodies as the server sends them (the OpenAPI
// document's Error schema), their field paths arrays of keys and indices.
import { describe, expect, it } from "vitest";
import { protocolDocExamples } from "~/test/agent-protocol-doc";
import { ZError } from "./rest/openapi-parts";

describe("docs/agent-protocol.md, Errors and retries", () => {
  it("every example is an error body, each field's path an array", () => {
    const examples = protocolDocExamples("Errors and retries", "##");
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect(ZError.strict().safeParse(example).success, JSON.stringify(example)).toBe(true);
      const fields = (example as { error: { details?: { fields?: { path: unknown }[] } } }).error.details?.fields ?? [];
      for (const field of fields) expect(Array.isArray(field.path), JSON.stringify(field)).toBe(true);
    }
  });
});
