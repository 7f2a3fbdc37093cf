// docs/openapi.json must be the document the server generates: the agents' conformance tests read
// it, so a server change that reaches the protocol fails here first, and after the snapshot is
// written again, in the agent that does not follow it.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { jsonDifferences, openApiSnapshotPath, openApiSnapshotText, refreshCommand } from "./openapi-snapshot";

describe("docs/openapi.json", () => {
  it("is the OpenAPI document the server generates", () => {
    const stored = JSON.parse(fs.readFileSync(openApiSnapshotPath, "utf8")) as unknown;
    const generated = JSON.parse(openApiSnapshotText()) as unknown;
    const differences = jsonDifferences(generated, stored);
    expect(
      differences,
      `docs/openapi.json differs from the server's document at ${differences.join(", ")}: run \`${refreshCommand}\`, commit it, and run the agents' tests (their conformance tests read it)`,
    ).toEqual([]);
  });

  it("names each place two documents differ", () => {
    expect(jsonDifferences({ a: { b: [1, 2] }, "x/y": 1 }, { a: { b: [1, 3] }, "x/y": 1, c: true })).toEqual(["/a/b/1", "/c"]);
    expect(jsonDifferences({ a: [] }, { a: {} })).toEqual(["/a"]);
    expect(jsonDifferences({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
