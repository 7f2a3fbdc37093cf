// Paging through an experiment's runs and its per-metric results (the experiment page's lists).
import { z } from "zod";
import { ZExperimentRef, ZMetricKey } from "./experiment";

/** How many rows a list shows at first and per page. */
export const RUNS_PAGE_SIZE = 20;
export const MAX_RUNS_PAGE_SIZE = 100;

export const ZRunPage = z.object({
  offset: z
    .number({ error: "offset must be a whole number" })
    .int("offset must be a whole number")
    .min(0, "offset cannot be negative")
    .max(2_147_483_647, "offset is too large")
    .default(0),
  limit: z
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(MAX_RUNS_PAGE_SIZE, `limit must be at most ${MAX_RUNS_PAGE_SIZE}`)
    .default(RUNS_PAGE_SIZE),
});
export type TRunPage = z.output<typeof ZRunPage>;

export const ZRunsPageRef = ZExperimentRef.extend(ZRunPage.shape);
export const ZMetricResultsPageRef = ZExperimentRef.extend({ metricKey: ZMetricKey, ...ZRunPage.shape });

/** One run of the experiment, by id (the per-agent figures of a run several agents made). */
export const ZRunRef = ZExperimentRef.extend({ runId: z.string().trim().min(1, "runId is required").max(100, "runId must be at most 100 characters") });
