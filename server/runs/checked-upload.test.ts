// An upload's sample arrays checked by one loop instead of the schema's check per number must
// change nothing a client can see: the same numbers stored, the same refusals with the same
// messages and paths, and arrays lifted from the body already left as they are.
import { describe, expect, it } from "vitest";
import { AppError } from "../core/errors";
import { ZResultsUpload } from "../schemas/results";
import { parseInput } from "../schemas/validation";
import { checkedUpload } from "./checked-upload";

const upload = (samples: unknown, more: Record<string, unknown> = {}) => ({
  experiment: "e",
  create: true,
  runs: [
    {
      variant: "a",
      metrics: [{ key: "latency", unit: "ms", samples }, { key: "rate", unit: "1/s", value: 3 }, ...((more.metrics as unknown[] | undefined) ?? [])],
    },
    { variant: "b", metrics: [{ key: "latency", unit: "ms", samples: [4, 5.5, 1e-300] }] },
  ],
});

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

describe("checkedUpload", () => {
  it("gives each array of finite samples as a Float64Array of the same numbers, the rest as the schema gives it", () => {
    const samples = [0, -0, 1.5, 123456789.123, 5e-324, Number.MAX_VALUE];
    const checked = checkedUpload(upload(samples));
    const reference = parseInput(ZResultsUpload, upload(samples));
    const latency = checked.runs[0]!.metrics[0]!.samples;
    expect(latency).toBeInstanceOf(Float64Array);
    expect(Array.from(latency!)).toEqual(samples);
    expect(Array.from(checked.runs[1]!.metrics[0]!.samples!)).toEqual([4, 5.5, 1e-300]);
    // Everything else is the schema's own output (defaults included).
    const withoutSamples = (value: typeof reference) => ({
      ...value,
      runs: value.runs.map((run) => ({ ...run, metrics: run.metrics.map(({ samples: _, ...metric }) => metric) })),
    });
    expect(withoutSamples(checked as typeof reference)).toEqual(withoutSamples(reference));
  });

  it.each([
    ["an empty array", []],
    ["a string among the numbers", [1, "2", 3]],
    ["a null", [1, null]],
    ["an infinite number (1e999 in JSON)", [1, Infinity]],
    ["NaN", [Number.NaN]],
    ["a nested array", [[1]]],
    ["not an array", "1,2,3"],
  ])("refuses %s as the schema does, with its message and path", (_name, samples) => {
    const ours = refusal(() => checkedUpload(upload(samples)));
    const schemas = refusal(() => parseInput(ZResultsUpload, upload(samples)));
    expect(ours.message).toBe(schemas.message);
    expect(ours.fieldIssues).toEqual(schemas.fieldIssues);
  });

  it("keeps the schema's refusal of samples beside samplesBase64, and of a metric elsewhere in the upload", () => {
    const both = upload([1, 2], { metrics: [{ key: "size", unit: "B", samples: [1], samplesBase64: "AAAAAAAA8D8=" }] });
    expect(refusal(() => checkedUpload(both)).message).toBe(
      refusal(() => parseInput(ZResultsUpload, upload([1, 2], { metrics: [{ key: "size", unit: "B", samples: [1], samplesBase64: "AAAAAAAA8D8=" }] }))).message,
    );
    const bad = upload([1, 2], { metrics: [{ key: "", unit: "ms", samples: [1] }] });
    expect(refusal(() => checkedUpload(bad)).fieldIssues).toEqual(
      refusal(() => parseInput(ZResultsUpload, upload([1, 2], { metrics: [{ key: "", unit: "ms", samples: [1] }] }))).fieldIssues,
    );
  });

  it("leaves an array lifted from the body already where it is put back, not lifted again", () => {
    const big = new Float64Array([7, 8, 9]);
    const checked = checkedUpload(upload([0]), [{ run: 0, metric: 0, field: "samples", samples: big }]);
    expect(checked.runs[0]!.metrics[0]!.samples).toBe(big);
    expect(Array.from(checked.runs[1]!.metrics[0]!.samples!)).toEqual([4, 5.5, 1e-300]);
  });
});
