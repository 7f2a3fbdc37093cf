// Samples come back exactly as they went in, whichever way they were compressed: on this thread
// (fewer than ASYNC_FROM), on the thread pool (more), or synchronously.
import { describe, expect, it } from "vitest";
import { decodeSamples, encodeSamples, encodeSamplesAsync } from "./sample-codec";

describe("sample codec", () => {
  it.each([1, 1000, 60_000])("round-trips %i samples, and both encodings give the same bytes", async (count) => {
    const samples = Float64Array.from({ length: count }, (_, i) => 1 + ((i * 7919) % 1000) / 7);
    const blob = await encodeSamplesAsync(samples);
    expect(decodeSamples(blob)).toEqual(samples);
    expect(blob.equals(encodeSamples(samples))).toBe(true);
  });
});
