// The cached recorded values are the histogram's own, decoded once per stored result.
import { describe, expect, it } from "vitest";
import { recordedValues, samplesHistogram } from "../runs/histogram";
import { cachedRecordedValues } from "./recorded-values-cache";

describe("cachedRecordedValues", () => {
  const { histogram, histogramScale } = samplesHistogram([1.5, 2, 2, 3.25, 40], { minPositive: 1.5, max: 40 });

  it("gives the histogram's recorded values, the same object for the same result", () => {
    const first = cachedRecordedValues("result-1", histogram, histogramScale);
    expect(first).toEqual(recordedValues(histogram, histogramScale));
    expect(cachedRecordedValues("result-1", histogram, histogramScale)).toBe(first);
    expect(cachedRecordedValues("result-2", histogram, histogramScale)).not.toBe(first);
  });

  it("hands out values no reader can change", () => {
    const values = cachedRecordedValues("result-3", histogram, histogramScale);
    expect(() => values.values.push(1)).toThrow(TypeError);
  });
});
