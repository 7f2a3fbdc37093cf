import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-next";

describe("safeNextPath", () => {
  it("keeps a path on this site", () => {
    expect(safeNextPath("/p/examples/e/kafka?baseline=A")).toBe("/p/examples/e/kafka?baseline=A");
  });
  it("refuses other origins and protocol-relative tricks", () => {
    for (const next of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", null, undefined]) {
      expect(safeNextPath(next)).toBe("/");
    }
  });
});
