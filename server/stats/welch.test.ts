import { describe, expect, it } from "vitest";
import { close, scipy } from "./fixtures/load";
import { welchTTest } from "./welch";

const fixture = scipy();

describe("welchTTest against scipy.stats.ttest_ind(equal_var=False)", () => {
  it.each(fixture.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const r = welchTTest(c.x, c.y);
    const ref = c.ttest_welch;
    if (ref === null) {
      // scipy: nan (fewer than 2 values on a side, or every value equal).
      expect(r.p).toBeNull();
      expect(r.reason).toBeTruthy();
      return;
    }
    if (ref.t === null) {
      // scipy: t = ±inf, p = 0 (both variances 0, means differ). Versus: null with a reason.
      expect(r.t).toBeNull();
      expect(r.reason).toMatch(/zero variance/);
      return;
    }
    expect(r.t).not.toBeNull();
    expect(close(r.t as number, ref.t, 1e-9, 1e-12), `t ${r.t} vs ${ref.t}`).toBe(true);
    expect(close(r.df as number, ref.df, 1e-9, 1e-12), `df ${r.df} vs ${ref.df}`).toBe(true);
    expect(close(r.p as number, ref.p, 1e-9, 1e-12), `p ${r.p} vs ${ref.p}`).toBe(true);
  });
});
