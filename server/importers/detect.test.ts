// Detection on every tool's own fixtures: each file its format's importer accepts is detected as
// that format and nothing else; text no tool wrote is detected as none, saying why per format.
import { describe, expect, it } from "vitest";
import { detectFormat } from "./detect";
import { readableFixtures } from "./fixture-files";

const ownFixtures = readableFixtures();

describe("detectFormat", () => {
  it("has fixtures of all ten formats", () => {
    expect(new Set(ownFixtures.map((fixture) => fixture.format)).size).toBe(10);
  });

  it.each(ownFixtures.map((fixture) => [fixture.relative, fixture] as const))("detects %s as its tool's output, unambiguously", (_, fixture) => {
    expect(detectFormat(fixture.body)).toEqual({ format: fixture.format, ambiguous: [] });
  });

  it("detects nothing in text no tool wrote, with each format's reason", () => {
    const detection = detectFormat("Compiling…\nall tests passed\n");
    expect(detection.format).toBeNull();
    if (detection.format === null) {
      expect(detection.refusals.map((refusal) => refusal.format)).toHaveLength(10);
      expect(detection.refusals.every((refusal) => refusal.message.length > 0)).toBe(true);
    }
  });
});
