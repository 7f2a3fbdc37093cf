// What every example case shares: its shape (a definition plus, unless agents run it, the upload of its runs), the
// labels on its runs, and the footer of its description.
import type { z } from "zod";
import { ZExperimentInput, type TExperimentInput } from "../../schemas/experiment";
import { ZResultsUpload, type TResultsUpload } from "../../schemas/results";

/** Tag on every example run, next to the "example data" badge the experiment gets from isExample. */
export const EXAMPLE_TAG = "example data";
/** sourceDetail of runs whose samples or time series were generated (docs/examples.md's wording). */
export const SYNTHETIC = "synthetic samples from a published summary";
/** sourceDetail of runs that hold only the figures the write-up printed. */
export const PUBLISHED = "published summary";

export type ExampleDefinition = TExperimentInput & { slug: string };

/** One example experiment: its definition and the upload of its runs (through ingestResults). */
export interface ExampleExperiment {
  definition: ExampleDefinition;
  /** Deterministic: the same seeded numbers every time. Absent for a runnable example, which agents fill. */
  results?: () => TResultsUpload;
}

/** Parses a definition with the schema the experiment form and API use (defaults applied, rules checked). */
export function defineExperiment(input: z.input<typeof ZExperimentInput> & { slug: string }): ExampleDefinition {
  return { ...ZExperimentInput.parse(input), slug: input.slug };
}

/** Parses an upload with the schema POST /api/v1/results uses: the examples are ordinary uploads. */
export function toUpload(input: z.input<typeof ZResultsUpload>): TResultsUpload {
  return ZResultsUpload.parse(input);
}

/**
 * The closing paragraph of every write-up's description: where its seeded runs came from. It
 * speaks of those runs, not of the experiment, which a user may add runs of their own to; the
 * page and the report say "example data" only while the seeded runs are all there is
 * (server/experiments/example-notice.ts).
 */
export function exampleFooter(generated: string): string {
  return (
    "---\n\n" +
    "**About the example runs.** Versus loaded the runs tagged *example data* on first start, through the same ingest " +
    "service as real uploads, to show what a finished comparison looks like. " +
    generated +
    " Delete the *Examples* project (or this experiment) any time; it does not come back."
  );
}
