// Tells the server every heartbeatIntervalSeconds (±10%) that this agent is alive, what it can
// run and which jobs it is running; hears back which of them users cancelled and whether the
// agent should stop. The first heartbeat goes out at once, so a restarted agent announces its
// current workloads and labels before it claims anything.
import type { ApiClient } from "../api/client";
import { UnauthorizedError } from "../api/errors";
import type { HeartbeatRequest } from "../api/protocol";
import type { Logger } from "../log";
import { jitter, sleep } from "../timing";
import type { RunningJob } from "./running-job";

export interface HeartbeatDeps {
  client: ApiClient;
  log: Logger;
  /** What the agent is and runs; runningJobIds are added on each beat. */
  announce: () => Omit<HeartbeatRequest, "runningJobIds">;
  running: ReadonlyMap<string, RunningJob>;
  intervalSeconds: number;
  onStopRequested: () => void;
  onUnauthorized: (error: UnauthorizedError) => void;
}

export async function runHeartbeatLoop(deps: HeartbeatDeps, until: AbortSignal): Promise<void> {
  let intervalSeconds = deps.intervalSeconds;
  while (!until.aborted) {
    try {
      const answer = await deps.client.heartbeat({ ...deps.announce(), runningJobIds: [...deps.running.keys()] }, until);
      if (answer) {
        intervalSeconds = answer.heartbeatIntervalSeconds ?? intervalSeconds;
        for (const id of answer.cancelJobIds) {
          const running = deps.running.get(id);
          if (running) {
            deps.log.info("job.cancel_requested", { job: id, via: "heartbeat" });
            running.stop("cancelled");
          }
        }
        if (answer.stop) deps.onStopRequested();
      }
    } catch (error) {
      if (until.aborted) return;
      if (error instanceof UnauthorizedError) {
        deps.onUnauthorized(error);
        return;
      }
      deps.log.warn("heartbeat.failed", { error: error instanceof Error ? error.message : String(error) });
    }
    await sleep(jitter(intervalSeconds * 1000), until);
  }
}
