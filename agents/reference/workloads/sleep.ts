// Sleeps for a while and reports how long it slept: a job that lasts as long as a test needs
// (e.g. long enough to kill an agent in the middle of it), with no CPU cost.
import { z } from "zod";
import { sleep } from "../timing";
import { StoppedError, type Workload } from "./workload";

const settings = z.strictObject({
  ms: z
    .int()
    .min(0)
    .max(24 * 60 * 60 * 1000)
    .default(1000)
    .describe("How long to sleep, in milliseconds")
    .meta({ "x-unit": "ms" }),
});

export const sleepWorkload: Workload<z.output<typeof settings>> = {
  name: "sleep",
  description: "Sleep for a given time (for tests of the agent itself)",
  settings,
  metrics: [{ key: "slept_ms", unit: "ms", direction: "lower_is_better", aggregation: "mean", description: "How long the sleep took" }],
  async run(s, recorder, signal) {
    const start = performance.now();
    await sleep(s.ms, signal);
    if (signal.aborted) throw new StoppedError();
    recorder.sample("slept_ms", performance.now() - start);
  },
};
