import { describe, expect, it } from "vitest";
import { tailOf } from "../schemas/jobs";
import { backoffSeconds } from "./timing";

describe("backoffSeconds", () => {
  it("doubles from 5 s after each failed attempt and stops at 5 minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(backoffSeconds)).toEqual([5, 10, 20, 40, 80, 160, 300, 300, 300]);
  });
});

describe("tailOf", () => {
  it("keeps short logs whole", () => {
    expect(tailOf("a\nb", 10)).toBe("a\nb");
  });

  it("keeps the last bytes of a long log", () => {
    expect(tailOf("0123456789", 4)).toBe("6789");
  });

  it("never starts inside a multi-byte character", () => {
    // "é" is two bytes in UTF-8: the last 3 bytes of "aéé" begin inside the first é.
    expect(tailOf("aéé", 3)).toBe("é");
    expect(Buffer.byteLength(tailOf("€".repeat(100), 64))).toBeLessThanOrEqual(64);
  });
});
