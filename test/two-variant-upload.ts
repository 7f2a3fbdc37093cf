// An upload of one run each of variants "base" and "cand" (the candidate 1 ms slower), latency
// samples shifted by `shift` so every upload differs; `extra` metrics go to both runs.
import type { TResultsUpload } from "~/server/schemas/results";

type Metric = TResultsUpload["runs"][number]["metrics"][number];

export function twoVariantUpload(experiment: string, shift: number, extra: Metric[] = []): TResultsUpload {
  return {
    experiment,
    create: true,
    runs: ["base", "cand"].map((variant, v) => ({
      variant,
      status: "succeeded" as const,
      environment: {},
      tags: [],
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better" as const, samples: [10 + v + shift, 11 + v + shift, 12 + v + shift] }, ...extra],
    })),
  };
}
