// Turns for upload transactions in this server process. An upload's transaction holds its
// experiment's row lock until it commits (run-numbering.ts), so uploads to one experiment are stored
// one after another whatever happens; but a transaction waiting for that lock holds a pooled
// database connection meanwhile, and a burst of uploads to a few experiments would hold every
// connection of the pool (node-postgres's default: 10), leaving none for the comparisons and pages
// being read at the same time, and making uploads queued behind them fail once Prisma gives up
// waiting for a connection. Here uploads wait for their turn in memory instead: one transaction
// per experiment at a time, in arrival order, and at most MAX_INGEST_TRANSACTIONS at once, so the
// rest of the pool stays free for everything else. Several server processes still meet at the
// row lock, which stays what guarantees the numbering.

/** Upload transactions one process runs at once: 6 of the pool's 10 connections, leaving 4 for everything else. */
export const MAX_INGEST_TRANSACTIONS = 6;

interface Turns {
  /** Per experiment: settles when the last upload queued for it has had its turn. */
  tails: Map<string, Promise<void>>;
  running: number;
  /** Uploads whose experiment's turn came, waiting for one of the MAX_INGEST_TRANSACTIONS. */
  slots: (() => void)[];
  waiting: number;
}

// On globalThis: the results and imports routes are separate bundles that must share one queue.
const global = globalThis as unknown as { versusIngestTurns?: Turns };
const turns: Turns = (global.versusIngestTurns ??= { tails: new Map(), running: 0, slots: [], waiting: 0 });

/** Runs `transaction`, an upload's transaction on the experiment `experimentKey`, when its turn comes. */
export async function inTurn<T>(experimentKey: string, transaction: () => Promise<T>): Promise<T> {
  const previous = turns.tails.get(experimentKey) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = previous.then(() => mine);
  turns.tails.set(experimentKey, tail);
  turns.waiting++;
  try {
    await previous;
    await takeSlot();
    turns.waiting--;
    try {
      return await transaction();
    } finally {
      releaseSlot();
    }
  } finally {
    done();
    if (turns.tails.get(experimentKey) === tail) turns.tails.delete(experimentKey);
  }
}

/** Uploads of this process waiting for their turn. */
export function waitingForTurn(): number {
  return turns.waiting;
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
