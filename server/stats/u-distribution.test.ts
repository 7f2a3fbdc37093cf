// The exact U tables are cached for a long-running server: within a memory bound (bytes, since one
// table can hold 32 MB), and a table pushed out is built again with the same answers.
import { describe, expect, it } from "vitest";
import { cachedTableBytes, uCdf } from "./u-distribution";

describe("the exact U distribution's table cache", () => {
  it("stays within 64 MB however many sizes are asked for, and answers the same after a table was pushed out", () => {
    const first = uCdf(1000, 60, 70);
    // Larger and larger tables one after another (2 × 1,000,000 to 2 × 2,000,000: 16 to 32 MB each, 144 MB in all).
    for (let n = 1_000_000; n <= 2_000_000; n += 200_000) {
      uCdf(n, 2, n);
      expect(cachedTableBytes()).toBeLessThanOrEqual(64 * 2 ** 20);
    }
    expect(cachedTableBytes()).toBeGreaterThan(32 * 2 ** 20);
    expect(uCdf(1000, 60, 70)).toBe(first);
  }, 60_000);
});
