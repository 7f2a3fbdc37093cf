// The contract between the agent and a workload. A workload never sees the protocol: it gets its
// validated settings, records numbers on the recorder, and stops when the signal aborts (the
// job was cancelled, its lease was lost, or the agent is shutting down). The agent never looks
// inside a workload's settings: the workload's Zod schema checks them before it runs.
import type { z } from "zod";

export type Direction = "lower_is_better" | "higher_is_better";

/** How one run of a metric is summarised when it is compared (the server's names). */
export type Aggregation = "mean" | "median" | "p90" | "p95" | "p99" | "min" | "max" | "sum" | "rate" | "last";

/** A metric a workload reports, with the unit its values are in; advertised at register and heartbeat. */
export interface MetricSpec {
  key: string;
  unit: string;
  direction: Direction;
  /** How a run is summarised when this metric is compared. */
  aggregation: Aggregation;
  description: string;
}

/** A summary of n values: n, mean, sd, min and max describe the same values (the server refuses one that cannot). */
export interface Summary {
  n: number;
  mean: number;
  sd?: number;
  min?: number;
  max?: number;
}

export interface Recorder {
  /** One per-operation value of a metric (e.g. the time of one compression). */
  sample(key: string, value: number): void;
  /** A metric known only as a summary (e.g. a byte count that is the same for every operation). */
  summary(key: string, summary: Summary): void;
  /**
   * What the run contributes to comparisons when it is none of the figures of the metric's
   * samples or summary (the whole run's rate while the samples are per-second rates).
   */
  value(key: string, value: number): void;
  /** A line of progress; the last lines go with a failure report as its log tail. */
  log(line: string): void;
}

export interface Workload<Settings = unknown> {
  name: string;
  description: string;
  /** Checks and completes (defaults) a job's settings; its JSON Schema is advertised to the server. */
  settings: z.ZodType<Settings>;
  metrics: readonly MetricSpec[];
  run(settings: Settings, recorder: Recorder, signal: AbortSignal): Promise<void>;
}

/** Thrown by a workload that stopped because its signal aborted. */
export class StoppedError extends Error {
  constructor() {
    super("stopped");
    this.name = "StoppedError";
  }
}

/** Gives the event loop a turn (so lease renewals and heartbeats go out), then checks the signal. */
export async function checkpoint(signal: AbortSignal): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (signal.aborted) throw new StoppedError();
}
