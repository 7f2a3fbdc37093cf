// Samples come back exactly as they went in, whichever way they were compressed: on this thread
// (fewer than ASYNC_FROM), on the thread pool (more), or synchronously. And the blob is the layout
// stored since the first upload, so blobs written before decode as they did and the other way round.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeSamples, encodeSamples, encodeSamplesAsync, FLOAT64_LIMIT } from "./sample-codec";

describe("sample codec", () => {
  it.each([1, 1000, 60_000])("round-trips %i samples, and both encodings give the same bytes", async (count) => {
    const samples = Float64Array.from({ length: count }, (_, i) => 1 + ((i * 7919) % 1000) / 7);
    const blob = await encodeSamplesAsync(samples);
    expect(decodeSamples(blob)).toEqual(samples);
    expect(blob.equals(encodeSamples(samples))).toBe(true);
  });

  it.each([
    ["float64", 3, 8],
    ["float32", FLOAT64_LIMIT + 3, 4],
  ] as const)("stores %s values as byte planes: byte b of value i at b × count + i, little-endian, deflated", (_, count, width) => {
    const samples = Array.from({ length: count }, (_, i) => (i % 2 ? -1 : 1) * (0.5 + i * 1.25e-3) * 10 ** (i % 7));
    const blob = encodeSamples(samples);
    expect(blob[0]).toBe(width === 8 ? 1 : 2);
    const expected = Buffer.alloc(count * width);
    const value = Buffer.alloc(width);
    samples.forEach((sample, i) => {
      if (width === 8) value.writeDoubleLE(sample);
      else value.writeFloatLE(sample);
      for (let b = 0; b < width; b++) expected[b * count + i] = value[b] as number;
    });
    expect(zlib.inflateRawSync(blob.subarray(1)).equals(expected)).toBe(true);
  });
});
