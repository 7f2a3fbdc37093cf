// Turns for upload transactions in this server process. Uploads to an experiment that already has
// their variants and metrics take no experiment-wide lock (ingest-results.ts): they commit side by
// side, meeting only at their variants' repetition counters for the length of one statement and
// its commit. An upload that creates an experiment, variant or metric takes the experiment's row
// lock (run-numbering.ts), and a transaction waiting for that lock holds a pooled database
// connection meanwhile; a burst of such uploads would hold every connection of the pool
// (node-postgres's default: 10), leaving none for the comparisons and pages being read at the same
// time, and making uploads queued behind them fail once Prisma gives up waiting for a connection.
// So at most MAX_INGEST_TRANSACTIONS upload transactions run at once, the others wait in memory in
// arrival order, and the rest of the pool stays free for everything else.

/** Upload transactions one process runs at once: 6 of the pool's 10 connections, leaving 4 for everything else. */
export const MAX_INGEST_TRANSACTIONS = 6;

interface Turns {
  running: number;
  /** Uploads waiting for one of the MAX_INGEST_TRANSACTIONS. */
  slots: (() => void)[];
}

// On globalThis: the results and imports routes are separate bundles that must share one limit.
const global = globalThis as unknown as { versusIngestSlots?: Turns };
const turns: Turns = (global.versusIngestSlots ??= { running: 0, slots: [] });

/** Runs `transaction`, an upload's transaction, once one of the MAX_INGEST_TRANSACTIONS is free. */
export async function inTurn<T>(transaction: () => Promise<T>): Promise<T> {
  await takeSlot();
  try {
    return await transaction();
  } finally {
    releaseSlot();
  }
}

/** Uploads of this process waiting for their turn. */
export function waitingForTurn(): number {
  return turns.slots.length;
}

async function takeSlot(): Promise<void> {
  if (turns.running < MAX_INGEST_TRANSACTIONS) {
    turns.running++;
    return;
  }
  // releaseSlot hands its slot over: `running` stays as it is.
  await new Promise<void>((resolve) => turns.slots.push(resolve));
}

function releaseSlot() {
  const next = turns.slots.shift();
  if (next) next();
  else turns.running--;
}
