import { describe, expect, it } from "vitest";
import { labelsText, parseLabels } from "./probe-series-editor";

describe("custom series labels as Prometheus writes them", () => {
  it('reads name="value" pairs, with or without braces, escapes kept', () => {
    expect(parseLabels('area="heap", id="G1 Old Gen"')).toEqual({ area: "heap", id: "G1 Old Gen" });
    expect(parseLabels('{name="io",}')).toEqual({ name: "io" });
    expect(parseLabels('path="/a,b", q="say \\"hi\\""')).toEqual({ path: "/a,b", q: 'say "hi"' });
    expect(parseLabels("  ")).toBeUndefined();
  });

  it("says what it could not read", () => {
    expect(parseLabels("area=heap")).toBe('labels: write them as Prometheus does, name="value" separated by commas (could not read “area=heap”)');
    expect(parseLabels('a="1", a="2"')).toBe("labels: a is given twice");
  });

  it("writes them back so they read the same", () => {
    const labels = { path: "/a,b", q: 'say "hi"' };
    expect(parseLabels(labelsText(labels))).toEqual(labels);
  });
});
