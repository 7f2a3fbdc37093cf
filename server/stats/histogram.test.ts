import { build, encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { fixtureJson } from "./fixtures/load";
import { bytesToBase64, mergeHistograms } from "./histogram";

interface HdrFixture {
  histograms: string[];
  merged: { count: number; min: number; max: number; mean: number; p50: number; p90: number; p95: number; p99: number; p999: number };
}
const fixture = fixtureJson<HdrFixture>("hdr/histograms.json");

describe("mergeHistograms", () => {
  it("matches the Python HdrHistogram port (hdrh) on three merged runs", () => {
    const merged = mergeHistograms(fixture.histograms);
    expect(merged).not.toBeNull();
    const ref = fixture.merged;
    expect(merged).toMatchObject({ count: ref.count, max: ref.max, p50: ref.p50, p90: ref.p90, p95: ref.p95, p99: ref.p99, p999: ref.p999 });
    expect(merged?.min).toBe(ref.min);
    expect(merged?.mean).toBeCloseTo(ref.mean, 6);
  });

  it("accepts raw bytes as well as base64 text", () => {
    const bytes = fixture.histograms.map((b64) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0)));
    expect(bytesToBase64(bytes[0] as Uint8Array)).toBe(fixture.histograms[0]);
    expect(mergeHistograms(bytes)).toEqual(mergeHistograms(fixture.histograms));
  });

  it("round-trips a histogram recorded here", () => {
    const h = build();
    for (let v = 1; v <= 1000; v++) h.recordValue(v);
    const encoded = encodeIntoCompressedBase64(h);
    h.destroy();
    expect(mergeHistograms([encoded, encoded])).toMatchObject({ count: 2000, p50: 500, p99: 990, max: 1000 });
  });

  it("returns null for no histograms and rejects text that is not one", () => {
    expect(mergeHistograms([])).toBeNull();
    expect(() => mergeHistograms(["not a histogram"])).toThrow(/HdrHistogram/);
  });
});
