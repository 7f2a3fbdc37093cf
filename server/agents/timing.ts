// The protocol's clock: what register tells agents, and the queue's backoff. One place, so the
// replies, the claim query and docs/agent-protocol.md agree.

/** How often an agent heartbeats; it counts as online while seen within three intervals. */
export const HEARTBEAT_INTERVAL_SECONDS = 10;
export const ONLINE_WITHIN_MS = 3 * HEARTBEAT_INTERVAL_SECONDS * 1000;

/** The longest a claim waits for work (long-poll). */
export const CLAIM_WAIT_SECONDS = 30;

/** How long a lease lasts without renewal; agents renew every third of it. */
export const LEASE_SECONDS = 60;

/**
 * How often a waiting claim looks again without being woken: for leases that expired and jobs
 * whose backoff ended, which nothing announces. Never a tight loop.
 */
export const RECHECK_MS = 5000;

/** Backoff before attempt n + 1 after a retryable failure of attempt n: 5 s, 10 s, 20 s, … ≤ 5 min. */
export const BACKOFF_BASE_SECONDS = 5;
export const BACKOFF_MAX_SECONDS = 300;

export function backoffSeconds(failedAttempt: number): number {
  return Math.min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * 2 ** Math.max(0, failedAttempt - 1));
}

/** A job is retried at most this often unless the batch says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** How long a job group's ready shards wait for the rest before the group is given back (or fails). */
export const GROUP_READY_TIMEOUT_SECONDS = 60;

/** How far in the future a job group's start time is set when its last shard is ready: every agent's next ready call hears it well before. */
export const GROUP_START_LEAD_MS = 2000;

/** How often a ready shard asks again while it waits for the rest of its group. */
export const GROUP_READY_POLL_MS = 250;
