// Agent labels: key → value strings an agent carries and a batch or an agent pool can require.
// Apart from the agent schemas so that a workload's agent pool (./workload.ts) can name them
// without an import cycle (./agents.ts imports the workload adverts).
import { z } from "zod";

/** key → value strings used to pin work to machines, e.g. {"pool": "lab"}. */
export const ZLabels = z
  .record(
    z.string().trim().min(1, "a label key cannot be blank").max(64, "a label key must be at most 64 characters"),
    z.string({ error: "a label value must be a string" }).max(200, "a label value must be at most 200 characters"),
    { error: (issue) => (issue.code === "invalid_type" ? 'labels must be an object of key → value strings, e.g. {"pool": "lab"}' : undefined) },
  )
  .refine((labels) => Object.keys(labels).length <= 50, "at most 50 labels");
export type TLabels = z.output<typeof ZLabels>;
