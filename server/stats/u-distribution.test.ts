// The exact U tables are cached for a long-running server: within a memory bound (bytes, since one
// table can hold 32 MB), and a table pushed out is built again with the same answers.
import { describe, expect, it } from "vitest";
import { cachedTableBytes, uCdf } from "./u-distribution";

describe("the exact U distribution's table cache", () => {
  it("stays within 64 MB however many sizes are asked for, and answers the same after a table was pushed out", () => {
    const first = uCdf(1000, 60, 70);
    // Larger and larger tables one after another (8 × 100,000 to 8 × 480,000: 6 to 31 MB each, 400 MB in all).
    for (let n = 100_000; n <= 480_000; n += 20_000) {
      uCdf(n, 8, n);
      expect(cachedTableBytes()).toBeLessThanOrEqual(64 * 2 ** 20);
    }
    expect(cachedTableBytes()).toBeGreaterThan(32 * 2 ** 20);
    expect(uCdf(1000, 60, 70)).toBe(first);
  });
});
