import { describe, expect, it } from "vitest";
import { coefficientOfVariation, mean, median, populationSd, quantileSorted, sampleSd, sum } from "./descriptive";
import { close, scipy } from "./fixtures/load";

const serializer = scipy().serializer;

describe("descriptive statistics", () => {
  it("gives the serializer case's sample sds 0.204, 0.153, 0.045 and population sds 0.182, 0.137, 0.040", () => {
    const { SPRING_JSON, JACKSON, KOTLINX } = serializer.values as Record<"SPRING_JSON" | "JACKSON" | "KOTLINX", number[]>;
    expect([SPRING_JSON, JACKSON, KOTLINX].map((v) => Number(sampleSd(v).toFixed(3)))).toEqual([0.204, 0.153, 0.045]);
    expect([SPRING_JSON, JACKSON, KOTLINX].map((v) => Number(populationSd(v).toFixed(3)))).toEqual([0.182, 0.137, 0.04]);
    expect([SPRING_JSON, JACKSON, KOTLINX].map((v) => Number(mean(v).toFixed(3)))).toEqual([3.078, 2.959, 2.89]);
    for (const [name, values] of Object.entries(serializer.values)) {
      expect(close(sampleSd(values), serializer.sample_sd[name] as number, 1e-12)).toBe(true);
      expect(close(populationSd(values), serializer.population_sd[name] as number, 1e-12)).toBe(true);
    }
  });

  it("sums with compensation", () => {
    expect(sum([1e16, 1, -1e16])).toBe(1);
    expect(mean([0.1, 0.2, 0.3])).toBeCloseTo(0.2, 16);
  });

  it("has medians, type-7 quantiles and the CV", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4, 5], 0.9)).toBeCloseTo(4.6, 14);
    expect(coefficientOfVariation([2, 4])).toBeCloseTo(Math.SQRT2 / 3, 14);
    expect(coefficientOfVariation([-1, 1])).toBeNull();
    expect(coefficientOfVariation([5])).toBeNull();
  });

  it("refuses empty input", () => {
    expect(() => mean([])).toThrow(RangeError);
    expect(() => sampleSd([1])).toThrow(RangeError);
  });
});
