// A job this agent is running: its lease and the switch that stops its workload.
import type { Job } from "../api/protocol";
import type { StopReason } from "./execute-job";

export class RunningJob {
  private readonly controller = new AbortController();

  constructor(readonly job: Job) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the workload; the first reason wins (a cancel then a shutdown is still a cancel). */
  stop(reason: StopReason) {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}
