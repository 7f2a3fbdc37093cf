// encodeHistogram assembles the V2 compressed encoding itself: it must be byte for byte what
// hdr-histogram-js encodes (which the Go and Java agents' libraries read and write too).
import * as hdr from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { decodeHistogram, encodeHistogram, newHistogram } from "./histogram";

describe("encodeHistogram", () => {
  it.each([
    ["empty", []],
    ["one value", [42]],
    ["a thousand latencies", Array.from({ length: 1000 }, (_, i) => Math.round(1000 + 900 * Math.sin(i) ** 2 + i * 37))],
    ["values across 12 orders of magnitude", Array.from({ length: 200 }, (_, i) => Math.round(10 ** (i / 16.5)))],
  ])("%s: the bytes hdr-histogram-js encodes, decoding as theirs do", (_name, values) => {
    const histogram = newHistogram();
    try {
      for (const value of values) histogram.recordValue(value);
      const encoded = encodeHistogram(histogram);
      expect(encoded.toString("base64")).toBe(hdr.encodeIntoCompressedBase64(histogram));
      const decoded = decodeHistogram(encoded);
      expect(decoded.totalCount).toBe(values.length);
      expect(decoded.getValueAtPercentile(99)).toBe(hdr.decodeFromCompressedBase64(hdr.encodeIntoCompressedBase64(histogram)).getValueAtPercentile(99));
    } finally {
      histogram.destroy();
    }
  });
});
