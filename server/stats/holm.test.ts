import { describe, expect, it } from "vitest";
import { close, scipy } from "./fixtures/load";
import { holmAdjust } from "./holm";

describe("holmAdjust against statsmodels multipletests(method='holm')", () => {
  it.each(scipy().holm.map((c) => [c.p.join(", "), c] as const))("p = [%s]", (_label, c) => {
    const got = holmAdjust(c.p);
    got.forEach((g, i) => expect(close(g as number, c.adjusted[i] as number, 1e-12, 1e-15)).toBe(true));
  });

  it("leaves untested entries out of the family", () => {
    expect(holmAdjust([0.01, null, 0.04])).toEqual([0.02, null, 0.04]);
  });
});
