// Packed numbers come back exactly, whatever the buffer's alignment; a torn buffer is refused.
import { describe, expect, it } from "vitest";
import { packFloat64, packUint32, unpackFloat64, unpackUint32 } from "./packed-numbers";

describe("packed numbers", () => {
  it("round-trip float64 exactly (extremes, negative zero, subnormals) and uint32", () => {
    const floats = [0, -0, 1.5, -2.25, Number.MAX_VALUE, Number.MIN_VALUE, 1e-310, 0.1 + 0.2, 1784.3];
    expect([...unpackFloat64(packFloat64(floats))]).toEqual(floats);
    expect(Object.is(unpackFloat64(packFloat64([-0]))[0], -0)).toBe(true);
    const counts = [0, 1, 10, 4_294_967_295];
    expect([...unpackUint32(packUint32(counts))]).toEqual(counts);
    expect(packFloat64([1]).toString("hex")).toBe("000000000000f03f"); // little-endian on any host
    // Typed arrays (a view into a larger buffer, too) pack the same as plain arrays.
    const typed = new Float64Array([9, ...floats]).subarray(1);
    expect(packFloat64(typed)).toEqual(packFloat64(floats));
    expect(packUint32(new Uint32Array(counts))).toEqual(packUint32(counts));
  });

  it("reads from a view at an odd offset (as a driver's buffer may be)", () => {
    const packed = packFloat64([3.25, 4.5]);
    const odd = Buffer.concat([Buffer.from([7]), packed]).subarray(1);
    expect([...unpackFloat64(odd)]).toEqual([3.25, 4.5]);
  });

  it("refuses a length that is not whole values", () => {
    expect(() => unpackFloat64(new Uint8Array(9))).toThrow("multiple of 8 bytes, got 9");
    expect(() => unpackUint32(new Uint8Array(3))).toThrow("multiple of 4 bytes, got 3");
  });
});
